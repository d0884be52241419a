import { LOGIN_MODULE } from './login/descriptor.js';
import { PROXY_MODULE } from './proxy/descriptor.js';

/**
 * Every module tessera knows (docs/protocol.md §8): its name, the modules it needs, what it adds. Plain
 * data, so configuration is checked without loading any adapter; registry.ts holds what each does.
 * Dependencies come before their dependants.
 */
export const MODULE_CATALOG = [
  { name: 'rest', dependencies: [], summary: 'TGT, ST, status and logout under /v1/tickets, and /v1/users' },
  { name: 'tokens', dependencies: ['rest'], summary: 'TGTs (token=true) and service tickets as signed and encrypted JWTs' },
  // Needs rest: its handler checks the Basic credentials, and its TGTs authorize the earlier variant.
  { name: 'services', dependencies: ['rest'], summary: 'register services over REST: POST /v1/services and /v1/services/add/{tgt}' },
  { name: 'otp', dependencies: ['rest'], summary: 'TOTP codes (RFC 6238) as a second credential; users with requireOtp need one' },
  { name: 'throttle', dependencies: [], summary: 'locks a client IP + username after repeated failed logins (423 with Retry-After)' },
  // Needs rest: certificates are one more credential of /v1/tickets and /v1/users.
  { name: 'x509', dependencies: ['rest'], summary: 'X.509 client certificates from a form field, a trusted proxy header or the TLS handshake' },
  LOGIN_MODULE,
  PROXY_MODULE,
] as const satisfies readonly ModuleDescriptor[];

export interface ModuleDescriptor {
  readonly name: string;
  readonly dependencies: readonly string[];
  readonly summary: string;
}

export type ModuleName = (typeof MODULE_CATALOG)[number]['name'];

export function knownModuleNames(): string[] {
  return MODULE_CATALOG.map((module) => module.name);
}

export interface ModuleListProblem {
  readonly index: number;
  readonly problem: string;
}

/** What is wrong with a `modules` list: unknown names, repeats, dependencies that are off. */
export function moduleListProblems(names: readonly string[]): ModuleListProblem[] {
  const problems: ModuleListProblem[] = [];
  names.forEach((name, index) => {
    const module: ModuleDescriptor | undefined = MODULE_CATALOG.find((candidate) => candidate.name === name);
    if (!module) {
      problems.push({ index, problem: `unknown module "${name}" (known: ${knownModuleNames().join(', ')})` });
    } else if (names.indexOf(name) !== index) {
      problems.push({ index, problem: `module "${name}" is listed twice` });
    } else {
      for (const dependency of module.dependencies.filter((needed) => !names.includes(needed))) {
        problems.push({ index, problem: `module "${name}" needs module "${dependency}", which is not enabled` });
      }
    }
  });
  return problems;
}
