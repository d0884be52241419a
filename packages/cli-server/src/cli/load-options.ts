import type { LoadOptions } from '../config/load.js';

// A leaf: `--help` and the commands' table load no settings schema (and so no module) until a command runs.
/** Where a command's configuration comes from: `--config`, the process's `TESSERA_*` variables, and `--port` where the command takes it. */
export function loadOptions(values: { readonly config?: string | undefined; readonly port?: string | undefined }): LoadOptions {
  return { env: process.env, ...(values.config === undefined ? {} : { file: values.config }), ...(values.port === undefined ? {} : { port: values.port }) };
}
