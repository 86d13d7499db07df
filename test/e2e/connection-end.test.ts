// How the built `ws` leaves the server's connection as its process ends: a one-request
// command keeps its connection open for another request, then closes it as the command
// ends (the client's close()). The server must see what a client closing a kept connection
// sends (a FIN: the socket's 'end'), never a reset, and the connection gone once ws is.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { tempConfigDir } from '../helpers/run.ts';
import { spawnWs, wsEnv } from '../helpers/spawned.ts';

interface Seen {
  ended: boolean;
  error?: string;
  closed: Promise<void>;
}

let server: Server;
let url: string;
const seen: Seen[] = [];
let config: { dir: string; cleanup: () => void };

before(async () => {
  // A server that answers each request with keep-alive, and records how the client left.
  server = createServer((socket: Socket) => {
    const s: Seen = { ended: false, closed: Promise.resolve() };
    s.closed = new Promise((resolve) => socket.on('close', () => resolve()));
    socket.on('end', () => {
      s.ended = true;
      socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      s.error = err.code ?? err.message;
    });
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      head = '';
      const body = '{"count":3}';
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
      );
    });
    seen.push(s);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  url = `http://127.0.0.1:${port}`;
  config = tempConfigDir();
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  config.cleanup();
});

describe('the connection of a one-request command', () => {
  it('ends with a FIN as the process exits, not a reset', async () => {
    const ws = spawnWs(
      ['auth', 'status', '--json'],
      wsEnv(config.dir, {
        WS_BASE_URL: url,
        WS_TEAM_ID: '00000000-0000-4000-8000-000000000000',
        WS_API_KEY: 'wsk_test_connection_end',
      }),
    );
    assert.equal(await ws.exited, 0, ws.stderr());
    assert.equal(JSON.parse(ws.lines.join('\n')).status, 'ok');
    assert.equal(seen.length, 1);
    await seen[0]!.closed;
    assert.equal(seen[0]!.error, undefined);
    assert.equal(seen[0]!.ended, true);
  });
});
