import { createInterface } from 'node:readline';

/**
 * One password from stdin: the first line when piped, or typed at a terminal without echo.
 * Never from the command line, where it would land in shell history and `ps`.
 */
export async function readPassword(input: NodeJS.ReadStream, prompt: NodeJS.WriteStream): Promise<string> {
  if (!input.isTTY) return firstLine(input);
  prompt.write('Password: ');
  input.setRawMode(true);
  try {
    return await typedLine(input);
  } finally {
    input.setRawMode(false);
    input.pause();
    prompt.write('\n');
  }
}

async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
  }
}

const ENTER = new Set(['\r', '\n', '\u0004']);
const BACKSPACE = new Set(['\u007f', '\b']);

function typedLine(input: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const character of chunk.toString('utf8')) {
        if (ENTER.has(character) || character === '\u0003') {
          input.off('data', onData);
          if (character === '\u0003') reject(new Error('cancelled'));
          else resolve(typed.join(''));
          return;
        }
        typed = BACKSPACE.has(character) ? typed.slice(0, -1) : [...typed, character];
      }
    };
    input.on('data', onData);
    input.resume();
  });
}
