// What a POST /api/uploads sent: the raw bytes with `?filename=`, or a
// multipart form with one file. Its type is taken from the bytes (file-type's
// magic numbers; UTF-8 text without NULs as text/plain), never from the
// client: what is served later says what the file is. Linear in the body.
import { isUtf8 } from 'node:buffer';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, BadRequest } from '../../platform/errors.js';

export interface ReceivedFile {
  name: string;
  content: Buffer;
  contentType: string;
}

/** How much of the file the sniffer reads: every signature it knows sits within it. */
const SNIFF_BYTES = 64 * 1024;
const NAME_MAX = 255;

export const tooLarge = (max: number) => ({
  code: 'upload_too_large',
  message: `The file is larger than this service accepts (UPLOAD_MAX_BYTES: ${max} bytes).`,
});

export async function receiveFile(
  body: Buffer | undefined,
  contentType: string | undefined,
  filename: string | undefined,
  maxBytes: number,
): Promise<ReceivedFile> {
  // A request that declares no body at all (no Content-Length, not chunked) reaches here with none.
  if (!Buffer.isBuffer(body)) throw new BadRequest('invalid_upload', 'The request has no body: send the file.');
  const form = /^multipart\/form-data\b/i.test(contentType ?? '');
  const got = form ? await fromForm(body, contentType!, maxBytes) : { name: filename, content: body };
  if (got.name === undefined || got.name.trim() === '')
    throw new BadRequest('invalid_field', form ? 'The form part of the file names no filename.' : 'Name the file with ?filename=.', 'filename');
  if (got.content.length === 0) throw new BadRequest('invalid_upload', 'The file is empty.');
  if (got.content.length > maxBytes) throw new AppError(413, tooLarge(maxBytes).code, tooLarge(maxBytes).message);
  return { name: cleanName(got.name), content: got.content, contentType: await sniff(got.content) };
}

/** The last path segment, without control characters, at most 255 characters (a client's full path is not a name). */
function cleanName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const name = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!name || name === '.' || name === '..') throw new BadRequest('invalid_field', 'The filename names no file.', 'filename');
  if (!isWellFormed(name)) throw new BadRequest('invalid_field', 'The filename is not valid Unicode text.', 'filename');
  return [...name].slice(0, NAME_MAX).join('');
}

const isWellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

async function sniff(content: Buffer): Promise<string> {
  const found = await fileTypeFromBuffer(content.subarray(0, SNIFF_BYTES));
  if (found) return found.mime;
  return !content.subarray(0, SNIFF_BYTES).includes(0) && isUtf8(content) ? 'text/plain' : 'application/octet-stream';
}

/** The one file of a multipart form (field `file`, or the only file part); other fields are ignored. */
function fromForm(body: Buffer, contentType: string, maxBytes: number): Promise<{ name: string | undefined; content: Buffer }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 2, fileSize: maxBytes + 1, fields: 20, parts: 30, fieldSize: 4096 },
        defParamCharset: 'utf8',
      });
    } catch {
      return reject(new BadRequest('invalid_upload', 'The multipart form has no boundary.'));
    }
    const files: { name: string | undefined; content: Buffer }[] = [];
    parser.on('file', (_field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => files.push({ name: info.filename, content: Buffer.concat(chunks) }));
    });
    parser.on('error', () => reject(new BadRequest('invalid_upload', 'The multipart form could not be read.')));
    parser.on('close', () => {
      if (files.length === 0) reject(new BadRequest('invalid_upload', 'The form holds no file: send it in a part with a filename.'));
      else if (files.length > 1) reject(new BadRequest('invalid_upload', 'Send one file per upload.'));
      else resolve(files[0]!);
    });
    parser.end(body);
  });
}
