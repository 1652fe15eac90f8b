// A file served to be saved, never rendered: the answer of every download
// route (an e-mail's attachment, an upload). Its type is the one it was stored
// with where that is a plain media type, else application/octet-stream; the
// browser is told not to sniff another, to save it (Content-Disposition:
// attachment, with the name made safe and the exact one in filename*), and a
// sandboxing CSP covers a browser that opens it anyway.
import { encodeUriComponentCut } from '../platform/text.js';
import type { Answer } from './answer.js';

/** `attachment; filename="…"` with the name reduced to safe characters, and the exact name in filename*. */
export function disposition(name: string | null, fallback: string): string {
  const n = name ?? fallback;
  const ascii = n.replace(/[^\x20-\x7e]|["\\;]/g, '_').slice(0, 200) || fallback;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeUriComponentCut(n, 600)}`;
}

export function fileAnswer(file: { name: string | null; content_type: string; content: Buffer }, fallbackName: string): Answer {
  return {
    status: 200,
    headers: {
      'content-type': /^[\w.+-]+\/[\w.+-]+$/.test(file.content_type) ? file.content_type : 'application/octet-stream',
      'content-disposition': disposition(file.name, fallbackName),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; sandbox",
    },
    stream: (async function* () {
      yield file.content;
    })(),
  };
}
