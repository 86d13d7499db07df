// A scripted HTTP server on 127.0.0.1, for answers the sandbox cannot give on demand
// (a non-JSON error page, a 401, the gateway's older error form, a 409 or 412).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StubAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string | object;
  /** Destroy the socket instead of answering. */
  drop?: boolean;
}

export interface Stub {
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

export async function startStub(
  answer: (req: StubRequest, index: number) => StubAnswer,
): Promise<Stub> {
  const requests: StubRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: StubRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(r);
      const a = answer(r, requests.length - 1);
      if (a.drop) {
        req.socket.destroy();
        return;
      }
      const isText = typeof a.body === 'string';
      const body = a.body === undefined ? '' : isText ? (a.body as string) : JSON.stringify(a.body);
      res.writeHead(a.status, {
        'content-type': isText ? 'text/html' : 'application/json',
        'x-request-id': `req_stub_${requests.length}`,
        ...a.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
