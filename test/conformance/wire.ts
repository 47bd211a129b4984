// HTTP/1.1 over a raw `net` socket, for the HTTP rows: each chunk of a body written on its own
// (the server reads it apart), a sender that stalls or hangs up, the bytes sent before the answer,
// and whether the server closed the connection afterwards, seen as the socket's own 'end' or
// 'close', never inferred from a `Connection` header. And the part every HTTP row shares: a
// server on 127.0.0.1 whose connections and requests are counted, judged through such a client.

import {once} from 'node:events';
import type {IncomingMessage, Server} from 'node:http';
import {connect, type AddressInfo, type Socket} from 'node:net';

import {placeOf, refusalOfAnswer, sleep, Source, type AppRecord, type BodySpec, type Mount, type Opened, type Refusal, type ServerFacet, type Verdict} from './harness.js';

export interface Answer {
  /** 0 when the server answered nothing. */
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Milliseconds from the request's first byte to the answer's. */
  answeredAfter: number;
  /** Request bytes (head included) the client's kernel took before the answer's first byte. */
  sentBeforeAnswer: number;
  /** The server ended the connection (FIN, reset) within the wait asked for after the answer. */
  closed: boolean;
  /** The client went away mid-body, as the body asked. */
  abandoned: boolean;
  /** The whole body was sent: the connection is fit for another request if the server keeps it. */
  sentAll: boolean;
  /** The client's port: the server's socket for it has this remote port. */
  localPort: number;
}

/** Two turns of the event loop: the server, in this process, reads what was written before the next write. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** One client connection; requests on it go one after another (keep-alive). */
export class Connection {
  readonly socket: Socket;
  /** The client's port: the server's socket for it has this remote port. */
  readonly localPort: number;
  #received = Buffer.alloc(0);
  #ended = false;
  #firstByteAt = 0;
  #wake: () => void = () => {};

  private constructor(socket: Socket) {
    this.socket = socket;
    this.localPort = socket.localPort ?? 0;
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => {
      this.#firstByteAt ||= Date.now();
      this.#received = Buffer.concat([this.#received, data]);
      this.#wake();
    });
    const end = (): void => {
      this.#ended = true;
      this.#wake();
    };
    socket.on('end', end);
    socket.on('close', end);
    // ECONNRESET, EPIPE: the server closed on us.
    socket.on('error', end);
  }

  static async open(port: number): Promise<Connection> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new Connection(socket);
  }

  /** The server ended the connection. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Sends one request and reads its answer. The body's chunks are written one by one until the
   * answer starts (a client that is answered early stops sending, as `rawUpload` did), or to the
   * end with `sendAll`; then waits up to `closeWait` ms for the server to close.
   */
  async exchange(path: string, body: BodySpec, source: Source, options: {closeWait?: number; sendAll?: boolean} = {}): Promise<Answer> {
    const {closeWait = 0, sendAll = false} = options;
    const started = Date.now();
    this.#firstByteAt = 0;
    let acknowledged = 0;
    let sentBeforeAnswer = -1;
    const write = (data: Uint8Array | string): boolean => {
      const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      return this.socket.write(data, (error) => {
        if (error === undefined || error === null) acknowledged += size;
      });
    };
    const answering = (): boolean => this.#firstByteAt !== 0 || this.#ended;
    const headers: Record<string, string> = {'content-type': 'application/json'};
    for (const [name, value] of Object.entries(body.headers ?? {})) headers[name.toLowerCase()] = value;
    const announced = body.announced === true && (body.length !== undefined || headers['content-length'] !== undefined);
    if (announced) headers['content-length'] ??= String(body.length);
    else headers['transfer-encoding'] = 'chunked';
    write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`);
    let abandoned = false;
    let sentAll = false;
    const answered = sendAll ? new Promise<null>(() => {}) : this.#until(answering).then(() => null);
    const sending = (async () => {
      for (;;) {
        const next = await Promise.race([source.next(), answered]).catch(() => 'fail' as const);
        if (next === null) return;
        if (next === 'fail') {
          // Once the server has the head and what was sent.
          await sleep(50);
          abandoned = true;
          this.socket.destroy();
          return;
        }
        if (next === undefined) {
          if (!announced) write('0\r\n\r\n');
          sentAll = true;
          return;
        }
        // An empty chunk would end a chunked body.
        if (next.length === 0) continue;
        const flowing = announced ? write(next) : write(Buffer.concat([Buffer.from(`${next.length.toString(16)}\r\n`), next, Buffer.from('\r\n')]));
        if (!flowing) await Promise.race([once(this.socket, 'drain').catch(() => undefined), answered, sleep(2000)]);
        else await settle();
        if (answering() && !sendAll) return;
      }
    })();
    const parsed = await this.#answer();
    sentBeforeAnswer = this.#firstByteAt === 0 ? -1 : acknowledged;
    if (sendAll) await Promise.race([sending, this.#until(() => this.#ended)]);
    source.stop();
    await Promise.race([sending, sleep(100)]);
    if (closeWait > 0 && !this.#ended) await Promise.race([this.#until(() => this.#ended), sleep(closeWait)]);
    return {
      ...(parsed ?? {status: 0, headers: {}, text: ''}),
      answeredAfter: this.#firstByteAt === 0 ? -1 : this.#firstByteAt - started,
      sentBeforeAnswer,
      closed: this.#ended,
      abandoned,
      sentAll,
      localPort: this.localPort,
    };
  }

  close(): void {
    this.socket.destroy();
  }

  /** Resolves once `condition` holds, checked at each event of the socket. */
  #until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (!condition()) return;
        this.socket.off('data', check).off('end', check).off('close', check).off('error', check);
        resolve();
      };
      this.socket.on('data', check).on('end', check).on('close', check).on('error', check);
      queueMicrotask(check);
    });
  }

  /** The next whole answer, or undefined when the connection ends without one. */
  async #answer(): Promise<Parsed | undefined> {
    for (;;) {
      const parsed = this.#parse();
      if (parsed !== undefined) return parsed;
      if (this.#ended) return this.#parse(true);
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** One answer off the front of what was received (`atEnd`: a body without length ends here). */
  #parse(atEnd = false): Parsed | undefined {
    const buffer = this.#received;
    const headEnd = buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const [statusLine = '', ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
    const rest = buffer.subarray(headEnd + 4);
    let body: Buffer | undefined;
    let used = 0;
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') [body, used] = unchunk(rest) ?? [undefined, 0];
    else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (rest.length >= length) [body, used] = [rest.subarray(0, length), length];
    } else if (atEnd) [body, used] = [rest, rest.length];
    if (body === undefined) return undefined;
    this.#received = rest.subarray(used);
    return {status, headers, text: body.toString('utf8')};
  }
}

/** A chunked body's bytes and how many bytes of `data` it took, or undefined while incomplete. */
function unchunk(data: Buffer): [Buffer, number] | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) {
      const end = data.indexOf('\r\n', lineEnd + 2);
      return end < 0 ? undefined : [Buffer.concat(parts), end + 2];
    }
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

// ---------------------------------------------------------------------------------------------
// A served door

/** An HTTP row's app, listening on 127.0.0.1: one route per mount. */
export interface ServedApp {
  server: Server;
  /** Closes the server and its connections. */
  close(): Promise<void>;
}

/** Statuses of refusals by the middleware's conventions (422 for a schema violation). */
export const MIDDLEWARE_STATUSES: Readonly<Record<Refusal, number>> = {
  syntax: 400,
  validation: 422,
  limit: 413,
  media: 415,
  timeout: 408,
  aborted: 400,
  internal: 500,
  'no document': 400,
};

/** The Opened of an HTTP row: each body sent over a pooled raw connection, the answer read as a verdict. */
export class ServedDoor implements Opened, ServerFacet {
  readonly port: number;
  readonly #app: ServedApp;
  readonly #paths: Map<Mount, string>;
  readonly #statuses: Readonly<Record<Refusal, number>>;
  /** Server-side sockets by the client's port, and the last request on each. */
  readonly #sockets = new Map<number, Socket>();
  readonly #requests = new Map<number, IncomingMessage>();
  readonly #idle: Connection[] = [];
  readonly #record: AppRecord;
  /** What mounting threw, for a mount the app could not take: the cases that use it fail with it. */
  readonly #failures: ReadonlyMap<Mount, unknown>;

  constructor(app: ServedApp, paths: Map<Mount, string>, statuses: Readonly<Record<Refusal, number>>, record: AppRecord, failures: ReadonlyMap<Mount, unknown> = new Map()) {
    this.#app = app;
    this.#failures = failures;
    this.#paths = paths;
    this.#statuses = statuses;
    this.#record = record;
    this.port = (app.server.address() as AddressInfo).port;
    app.server.on('connection', (socket: Socket) => this.#sockets.set(socket.remotePort ?? 0, socket));
    app.server.on('request', (req: IncomingMessage) => this.#requests.set(req.socket.remotePort ?? 0, req));
  }

  get server(): ServerFacet {
    return this;
  }

  get handled(): number {
    return this.#record.handled;
  }

  path(mount: Mount): string {
    if (this.#failures.has(mount)) throw this.#failures.get(mount);
    const path = this.#paths.get(mount);
    if (path === undefined) throw new Error('a mount the door was not opened with');
    return path;
  }

  statusOf(refusal: Refusal): number {
    return this.#statuses[refusal];
  }

  bytesRead(localPort: number): number {
    return this.#sockets.get(localPort)?.bytesRead ?? -1;
  }

  async judge(mount: Mount, body: BodySpec, source = new Source(body)): Promise<Verdict> {
    const connection = this.#idleConnection() ?? (await Connection.open(this.port));
    const handledBefore = this.#record.handled;
    const toldBefore = this.#record.told.length;
    const answer = await connection.exchange(this.path(mount), body, source);
    const consumed = this.bytesRead(answer.localPort);
    if (answer.abandoned) return this.#abandoned(answer.localPort, handledBefore, toldBefore, consumed);
    if (answer.sentAll && !answer.closed && answer.headers['connection']?.toLowerCase() !== 'close') this.#idle.push(connection);
    else connection.close();
    const verdict = verdictOfAnswer(answer, consumed);
    const told = this.#record.told[toldBefore];
    return told === undefined ? verdict : {...verdict, firstError: placeOf(told.errors)};
  }

  /**
   * The client hung up mid-body: no answer to read. The verdict is what the app was told: its
   * handler must not have run, its error path should hear `request.aborted`, and the request must
   * let go of what it attached to the request stream.
   */
  async #abandoned(localPort: number, handledBefore: number, toldBefore: number, consumed: number): Promise<Verdict> {
    const req = this.#requests.get(localPort);
    const attached = (): string[] => (req === undefined ? ['no request arrived'] : (['data', 'end', 'error'] as const).filter((event) => req.listenerCount(event) > 0).map((event) => `${event} listener`));
    const settled = (): boolean => attached().length === 0 && (this.#record.told.length > toldBefore || this.#record.handled > handledBefore);
    for (let waited = 0; !settled() && waited < 2000; waited += 20) await sleep(20);
    const told = this.#record.told[toldBefore];
    const detail = {abandoned: true, told: told?.type};
    const leftBehind = attached();
    if (this.#record.handled > handledBefore) return {accepted: true, detail, consumed, leftBehind, wire: true};
    // An app that was told nothing has no refusal to show for it.
    const refusal = told === undefined ? 'internal' : refusalOfAnswer(400, told.type);
    return {accepted: false, refusal, detail, consumed, leftBehind, wire: true, firstError: placeOf(told?.errors)};
  }

  #idleConnection(): Connection | undefined {
    for (let connection = this.#idle.pop(); connection !== undefined; connection = this.#idle.pop()) {
      if (!connection.ended) return connection;
    }
    return undefined;
  }

  async close(): Promise<void> {
    for (const connection of this.#idle.splice(0)) connection.close();
    await this.#app.close();
  }
}

/** An answer as a verdict: 200 is the route's echo, `{received}`; anything else a refusal by its code or status. */
export function verdictOfAnswer(answer: Answer, consumed: number): Verdict {
  const detail = {status: answer.status, answer: answer.text};
  let json: {received?: unknown; code?: unknown; error?: unknown} | undefined;
  try {
    json = JSON.parse(answer.text) as typeof json;
  } catch {
    json = undefined;
  }
  if (answer.status === 200 && json !== undefined && 'received' in json) return {accepted: true, value: json.received, answer: answer.text, detail, consumed, wire: true};
  const refusal = answer.status === 0 ? 'internal' : refusalOfAnswer(answer.status, json?.code ?? json?.error);
  return {accepted: false, refusal, answer: answer.text, detail, consumed, wire: true};
}
