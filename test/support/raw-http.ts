import { connect } from 'node:net';

/** Sends bytes exactly as given (fetch would normalise them) and returns the status code of the answer. */
export function rawRequest(baseUrl: string, request: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`connection closed without a status: ${answer.slice(0, 80)}`)));
  });
}
