// Real-server helpers for the Express and Koa adapter tests: start an app on 127.0.0.1, and
// upload over a raw `net` socket where a test must control chunking and timing and count bytes.

import {once} from 'node:events';
import {readFileSync} from 'node:fs';
import type {Server} from 'node:http';
import {connect, type AddressInfo, type Socket} from 'node:net';

/** How long a suite of real-server tests may take. */
export const SUITE_TIMEOUT = {timeout: 60_000};

/** A body schema the adapter tests share: an order with at least one line item. */
export const orderSchema = {
  type: 'object',
  properties: {
    customer: {type: 'string', minLength: 1},
    items: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {sku: {type: 'string'}, quantity: {type: 'integer', minimum: 1}},
        required: ['sku', 'quantity'],
      },
    },
  },
  required: ['customer', 'items'],
} as const;

/** The first key of the body is forbidden: the verdict is certain at byte ~14. */
export const uploadSchema = {type: 'object', properties: {forbidden: false, data: {type: 'string'}}} as const;

/**
 * A closed object with a nested member: the security issue's reproduction, where a body cut off
 * inside `data` left state that let the next body's `role` pass.
 */
export const accountSchema = {
  type: 'object',
  properties: {name: {type: 'string'}, role: {enum: ['user']}, data: {type: 'object'}},
  required: ['name'],
  additionalProperties: false,
} as const;

/** A closed item: a forbidden first key makes the verdict certain at byte ~14, long before the body's end. */
export const itemSchema = {type: 'object', properties: {name: {type: 'string'}, forbidden: false}, required: ['name']} as const;

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** A running server, its port, and every connection's socket (to count the bytes the server read). */
export interface Harness {
  server: Server;
  port: number;
  sockets: Socket[];
}

/** Starts `app` (an Express or Koa app) on an ephemeral port of 127.0.0.1. */
export async function listen(app: {listen(port: number, host: string): Server}): Promise<Harness> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  return {server, port: (server.address() as AddressInfo).port, sockets};
}

export interface RawOutcome {
  head: string;
  status: number;
  /** Bytes of the request (head included) that the client's kernel took before the first response byte. */
  sentBeforeResponse: number;
  /** The server closed the connection on its own after answering. */
  closedByServer: boolean;
}

/**
 * Uploads `total` body bytes over a raw socket (`prefix`, then `filler` repeated, `x` by default,
 * then `suffix`), with backpressure, until the server answers; then stops and waits for the server
 * to close.
 */
export async function rawUpload(
  port: number,
  path: string,
  options: {
    total: number;
    prefix: string | Buffer;
    suffix: string | Buffer;
    contentLength: boolean;
    chunkSize?: number;
    contentType?: string;
    /** Sent whole, as many times as fits; the last one may be cut. */
    filler?: Buffer;
    headers?: Record<string, string>;
  },
): Promise<RawOutcome> {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  const framing = options.contentLength ? `Content-Length: ${options.total}` : 'Transfer-Encoding: chunked';
  const extra = Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${options.contentType ?? 'application/json'}\r\n${framing}\r\n${extra}\r\n`;
  let acknowledged = 0;
  let sentBeforeResponse = -1;
  let response = '';
  let closedByServer = false;
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('end', () => (closedByServer = true));
    socket.on('error', () => (closedByServer = true)); // ECONNRESET / EPIPE: the server closed on us
  });
  socket.on('data', (data: Buffer) => {
    if (sentBeforeResponse < 0) sentBeforeResponse = acknowledged;
    response += data.toString('latin1');
  });
  const write = (data: Buffer | string): boolean => {
    const size = Buffer.byteLength(data);
    return socket.write(data, (error) => {
      if (error === undefined || error === null) acknowledged += size;
    });
  };
  write(head);
  const chunkSize = options.filler?.length ?? options.chunkSize ?? 16 * KiB;
  const filler = options.filler ?? Buffer.alloc(chunkSize, 'x');
  let remaining = options.total;
  const deadline = Date.now() + 20_000;
  const body = (bytes: Buffer): boolean => (bytes.length === 0 || options.contentLength ? write(bytes) : write(Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')])));
  body(asBytes(options.prefix));
  remaining -= Buffer.byteLength(options.prefix) + Buffer.byteLength(options.suffix);
  while (remaining > 0 && sentBeforeResponse < 0 && !socket.destroyed && Date.now() < deadline) {
    const size = Math.min(remaining, chunkSize);
    remaining -= size;
    if (!body(size === chunkSize ? filler : filler.subarray(0, size))) {
      await Promise.race([once(socket, 'drain'), once(socket, 'data'), closed, sleep(2000)]);
    }
  }
  if (remaining <= 0 && !socket.destroyed) {
    body(asBytes(options.suffix));
    if (!options.contentLength) write('0\r\n\r\n');
  }
  await Promise.race([closed, sleep(5000)]);
  if (!socket.destroyed) socket.destroy();
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
  return {head: response.slice(0, response.indexOf('\r\n\r\n')), status, sentBeforeResponse, closedByServer};
}

function asBytes(data: string | Buffer): Buffer {
  return typeof data === 'string' ? Buffer.from(data) : data;
}

/** Writes `text` `size` bytes at a time, `pauseMs` apart, chunked, until the server answers. */
export async function slowUpload(port: number, path: string, text: Buffer, size: number, pauseMs: number, headers: Record<string, string> = {}): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  let response = '';
  socket.on('data', (data: Buffer) => (response += data.toString('utf8')));
  socket.on('error', () => {});
  const closed = once(socket, 'close');
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n${extra}\r\n`);
  for (let offset = 0; offset < text.length && response === '' && !socket.destroyed; offset += size) {
    const piece = text.subarray(offset, offset + size);
    socket.write(`${piece.length.toString(16)}\r\n`);
    socket.write(piece);
    socket.write('\r\n');
    await sleep(pauseMs);
  }
  if (response === '' && !socket.destroyed) socket.write('0\r\n\r\n');
  await Promise.race([closed, sleep(10_000)]);
  socket.destroy();
  return response;
}

/** superagent would JSON.stringify a Buffer sent as application/json: send the bytes as they are. */
export function asIs(body: unknown): string {
  return body as string;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * What the kernel buffers between the client's writes and the server's reads: the client's send
 * buffer (autotuned up to tcp_wmem's maximum) and the server's receive buffer (tcp_rmem's
 * default, which does not grow while the server is not reading).
 */
export const SOCKET_BUFFER = kernelBuffer('tcp_wmem', 2, 4 * MiB) + kernelBuffer('tcp_rmem', 1, 128 * KiB);

function kernelBuffer(name: string, field: number, fallback: number): number {
  try {
    const value = Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[field]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  } catch {
    return fallback;
  }
}
