// A tiny HTTP client for e2e tests: real requests over loopback, raw text kept
// so tests can compare answers byte for byte. Every answer is recorded and,
// at the end of the run, checked against the OpenAPI document (answer-check.ts).
import { recordAnswer } from './answer-check.js';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface RequestOptions {
  key?: string;
  cookie?: string;
  workspace?: string;
  headers?: Record<string, string>;
  /** send this exact string as the body */
  raw?: string;
}

export class Client {
  constructor(readonly base: string) {}

  async request(method: string, path: string, body?: unknown, o: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    if (o.cookie) headers.cookie = o.cookie;
    if (o.workspace) headers['x-service-workspace'] = o.workspace;
    let payload: string | undefined = o.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const res = await fetch(this.base + path, { method, headers, body: payload });
    const text = await res.text();
    recordAnswer({ method, path: new URL(this.base + path).pathname, status: res.status, contentType: res.headers.get('content-type'), text });
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  }

  get = (path: string, o?: RequestOptions) => this.request('GET', path, undefined, o);
  post = (path: string, body?: unknown, o?: RequestOptions) => this.request('POST', path, body, o);
  put = (path: string, body?: unknown, o?: RequestOptions) => this.request('PUT', path, body, o);
  delete = (path: string, o?: RequestOptions) => this.request('DELETE', path, undefined, o);
}
