// The transport of one-shot commands: HTTP/1.1 over a socket of node:net (or node:tls for
// https), with idle connections kept for the process's next request. A command that sends a
// request or two loads neither undici (its 150 KB of JavaScript and its WebAssembly parser)
// nor node:http (its client, server, agent and parser modules, and the first-call work of
// its request path): `ws auth status` starts 12 ms sooner than on node:http (see
// bench/startup.mjs, whose reference rows time the same GET both ways). What it needs of HTTP is small and fixed: one request at a time per
// connection, an answer read whole, framed by Content-Length, chunked encoding or the
// connection's end (http1.ts reads it). Idle connections do not keep the process alive.
import type * as Net from 'node:net';
import type * as Tls from 'node:tls';
import { onAbort } from '../util/abort.ts';
import { builtin } from '../util/builtin.ts';
import { AnswerReader, requestHead } from './http1.ts';
import {
  type Answer,
  type CloseOptions,
  type Exchange,
  MAX_ANSWER_BYTES,
  type Transport,
  type TransportOptions,
  transportError,
} from './transport.ts';

/** Methods the server may see twice without harm (RFC 9110 §9.2.2), as may any request with an Idempotency-Key. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Where a connection goes: from an origin, `http://host:port`. */
interface Peer {
  tls: boolean;
  host: string;
  port: number;
  /** The Host header: the origin's host and port, as the URL writes them. */
  hostHeader: string;
}

/** A connection as one exchange uses it. */
interface Connection {
  socket: Net.Socket;
  /** Kept from an earlier exchange (the server may have closed it since). */
  reused: boolean;
  tls: boolean;
  /** Where it waits for the next request once this one is answered. */
  idle: Net.Socket[];
}

export class HttpTransport implements Transport {
  private readonly opts: TransportOptions;
  /** Connections waiting for a request, by origin, newest last. */
  private readonly idle = new Map<string, Net.Socket[]>();
  /** Every open connection, idle or not (close() ends them all). */
  private readonly open = new Set<Net.Socket>();
  private ended = false;

  constructor(opts: TransportOptions) {
    this.opts = opts;
  }

  async send(x: Exchange): Promise<Answer> {
    const url = new URL(x.origin);
    const tls = url.protocol === 'https:';
    const peer: Peer = {
      tls,
      // An IPv6 address without its brackets.
      host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: Number(url.port) || (tls ? 443 : 80),
      hostHeader: url.host,
    };
    // Checked before any connection: a header that cannot be sent fails at once, every time.
    const head = requestHead(x.method, x.path, peer.hostHeader, x.headers, x.body);
    const replayable = IDEMPOTENT.has(x.method) || x.headers['idempotency-key'] !== undefined;
    const idle = this.idleOf(x.origin);
    for (;;) {
      const reused = idle.pop();
      if (reused !== undefined) reused.off('data', dropIdle);
      try {
        const socket = reused ?? this.connect(peer, idle);
        return await this.exchange({ socket, reused: reused !== undefined, tls, idle }, head, x);
      } catch (err) {
        // A kept connection the server closed as it sat idle fails before any byte of an
        // answer: the request is sent again on another connection, when that is safe (the
        // next kept one, or a new one; a new connection's failure is final).
        if (reused !== undefined && replayable && (err as { stale?: boolean }).stale) continue;
        throw err;
      }
    }
  }

  private idleOf(origin: string): Net.Socket[] {
    const list = this.idle.get(origin);
    if (list !== undefined) return list;
    const made: Net.Socket[] = [];
    this.idle.set(origin, made);
    return made;
  }

  private connect(peer: Peer, idle: Net.Socket[]): Net.Socket {
    if (this.ended) throw transportError('ECONNRESET', 'The transport is closed.');
    const net = builtin<typeof Net>('node:net');
    const socket: Net.Socket = peer.tls
      ? builtin<typeof Tls>('node:tls').connect({
          host: peer.host,
          port: peer.port,
          // SNI names a host, never an address (RFC 6066 §3).
          ...(net.isIP(peer.host) ? {} : { servername: peer.host }),
          ALPNProtocols: ['http/1.1'],
        })
      : net.connect({ host: peer.host, port: peer.port });
    socket.setNoDelay(true);
    this.open.add(socket);
    socket.once('close', () => {
      this.open.delete(socket);
      const i = idle.indexOf(socket);
      if (i !== -1) idle.splice(i, 1);
    });
    return socket;
  }

  private exchange(conn: Connection, head: string, x: Exchange): Promise<Answer> {
    const { socket, reused, idle } = conn;
    const max = this.opts.maxAnswerBytes ?? MAX_ANSWER_BYTES;
    return new Promise<Answer>((resolve, reject) => {
      const reader = new AnswerReader(x.method, max);
      let connectTimer: NodeJS.Timeout | undefined;
      // The longest wait for the answer to start, and between two parts of it: a timer of
      // this exchange's, refreshed as bytes arrive (the socket's own idle timeout costs a
      // one-shot command more to set up).
      let answerTimer: NodeJS.Timeout | undefined;
      const awaitAnswer = () => {
        answerTimer = setTimeout(
          () => finish(transportError('ANSWER_TIMEOUT', 'Timed out waiting for the answer.')),
          this.opts.answerTimeoutMs,
        );
      };
      let settled = false;
      // Removes the listener of the command's abort (Ctrl-C) once the exchange is over.
      let stopListening: (() => void) | undefined;
      const finish = (err: unknown, answer?: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        clearTimeout(answerTimer);
        socket.off('data', onData);
        socket.off('end', onEnd);
        socket.off('error', onError);
        socket.off('close', onEnd);
        stopListening?.();
        if (answer !== undefined && reader.reusable && !this.ended) {
          this.park(socket, idle);
          resolve(answer);
          return;
        }
        socket.destroy();
        if (answer !== undefined) resolve(answer);
        else reject(err);
      };
      const onData = (chunk: Buffer) => {
        answerTimer?.refresh();
        let done: Answer | undefined;
        try {
          done = reader.push(chunk);
        } catch (err) {
          finish(err);
          return;
        }
        if (done !== undefined) finish(undefined, done);
      };
      // A kept connection closed or reset before any byte of an answer: the server had
      // closed it as it sat idle (send() may try again).
      const onError = (err: Error & { code?: string }) => {
        if (reused && reader.nothingYet && (err.code === 'ECONNRESET' || err.code === 'EPIPE'))
          Object.assign(err, { stale: true });
        finish(err);
      };
      const onEnd = () => {
        let done: Answer;
        try {
          done = reader.end();
        } catch (err) {
          onError(err as Error);
          return;
        }
        finish(undefined, done);
      };

      if (x.signal?.aborted) {
        // Not sent: a kept connection goes back unused.
        if (reused) this.park(socket, idle);
        else socket.destroy();
        reject(x.signal.reason);
        return;
      }
      stopListening = x.signal && onAbort(x.signal, () => finish(x.signal?.reason));
      socket.on('data', onData);
      socket.on('end', onEnd);
      socket.on('close', onEnd);
      socket.on('error', onError);
      socket.ref();
      if (socket.connecting) {
        connectTimer = setTimeout(
          () => finish(transportError('CONNECT_TIMEOUT', 'Timed out connecting.')),
          this.opts.connectTimeoutMs,
        );
        socket.once(conn.tls ? 'secureConnect' : 'connect', () => {
          clearTimeout(connectTimer);
          if (!settled) awaitAnswer();
        });
      } else {
        awaitAnswer();
      }
      // One write for a request without a body, of text (a Buffer made of it, and cork(),
      // cost a one-request command 0.3 ms).
      if (x.body !== undefined && x.body.length > 0) {
        socket.cork();
        socket.write(head, 'latin1');
        socket.write(x.body);
        socket.uncork();
      } else socket.write(head, 'latin1');
    });
  }

  /** Keeps a connection for the next request; an idle one does not keep the process alive. */
  private park(socket: Net.Socket, idle: Net.Socket[]): void {
    if (socket.destroyed) return;
    // An idle connection's error (a reset by the server) only removes it; bytes on it answer
    // nothing this client sent, and end it.
    if (socket.listenerCount('error') === 0) socket.on('error', () => {});
    socket.on('data', dropIdle);
    socket.unref();
    idle.push(socket);
  }

  async close(opts?: CloseOptions): Promise<void> {
    this.ended = true;
    // An idle connection is ended (a FIN, as a client closes a kept connection), not
    // destroyed: destroying a socket reads process.stderr in Node's net module, which makes
    // that stream (a pipe's costs a command ~1 ms as it ends). Unreferenced, it does not
    // keep the process from exiting; one that stays open closes with the server's FIN.
    const idle = new Set([...this.idle.values()].flat());
    this.idle.clear();
    // As the process ends, the system closes them (ending each costs a one-request command
    // 0.4 ms).
    for (const socket of this.open) {
      if (!idle.has(socket)) socket.destroy();
      else if (!opts?.processEnds) socket.end();
    }
    this.open.clear();
  }
}

function dropIdle(this: Net.Socket): void {
  this.destroy();
}
