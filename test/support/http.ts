// A tiny HTTP client for e2e tests: real requests over loopback, raw text kept
// so tests can compare answers byte for byte. Every answer is recorded and,
// at the end of the run, checked against the OpenAPI document (answer-check.ts).
import { recordAnswer } from './answer-check.js';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
  /** the body as it came (a download's bytes) */
  bytes: Buffer;
}

export interface RequestOptions {
  key?: string;
  cookie?: string;
  workspace?: string;
  headers?: Record<string, string>;
  /** send this exact string as the body */
  raw?: string;
  /** send these bytes as the body (Content-Type application/octet-stream unless headers say another) */
  bytes?: Uint8Array;
}

export class Client {
  constructor(readonly base: string) {}

  async request(method: string, path: string, body?: unknown, o: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    if (o.cookie) headers.cookie = o.cookie;
    if (o.workspace) headers['x-service-workspace'] = o.workspace;
    let payload: string | Uint8Array | undefined = o.bytes ?? o.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = o.bytes ? 'application/octet-stream' : 'application/json';
    const res = await fetch(this.base + path, { method, headers, body: payload as BodyInit | undefined });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    recordAnswer({ method, path: new URL(this.base + path).pathname, status: res.status, contentType: res.headers.get('content-type'), text });
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed, bytes };
  }

  get = (path: string, o?: RequestOptions) => this.request('GET', path, undefined, o);
  post = (path: string, body?: unknown, o?: RequestOptions) => this.request('POST', path, body, o);
  put = (path: string, body?: unknown, o?: RequestOptions) => this.request('PUT', path, body, o);
  delete = (path: string, o?: RequestOptions) => this.request('DELETE', path, undefined, o);
}
