import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import type { Principal } from '../../api/context.js';
import { fileAnswer } from '../../api/download.js';
import { getRoute } from '../../api/resource-routes.js';
import { ResponseDoc, route, type Call, type RouteDef } from '../../api/routes.js';
import { ERROR } from '../../api/schemas.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { readDownloadToken } from './download-token.js';
import { createUpload } from './uploads.commands.js';
import type { Uploader } from './uploads.events.js';
import { receiveFile, tooLarge, type ReceivedFile } from './uploads.parse.js';
import { namedUploads, renderUpload, uploadSchema } from './uploads.read.js';
import type { PartFiles } from '../conversations/index.js';
import type { UploadStorage } from './storage.js';

const uploader = (p: Principal): Uploader => (p.via === 'api_key' ? { type: 'api_key', id: p.keyId! } : { type: 'member', id: p.memberId });

const UploadQuery = Type.Object(
  {
    filename: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1024, description: "The file's name, for a body of raw bytes (a multipart form's file part names its own)." }),
    ),
  },
  { additionalProperties: false },
);

const FILE_BYTES = new ResponseDoc(
  "The file's bytes, with the type sniffed from them, `Content-Disposition: attachment` (its name) and `X-Content-Type-Options: nosniff`.",
  { type: 'string', format: 'binary' },
  null,
  'application/octet-stream',
);

export function uploadsRoutes(deps: CoreDeps, storage: UploadStorage, files: PartFiles): RouteDef[] {
  const { db, config } = deps;
  const keeping = { forgettable: deps.forgettable, storage };
  /** the file each call sent, read before its command (parsing is async; the command is built synchronously) */
  const received = new WeakMap<object, ReceivedFile>();

  return [
    commandRoute(deps, {
      method: 'post',
      path: '/uploads',
      permission: 'conversations:write',
      summary: 'Upload a file (raw bytes with ?filename=, or a multipart form), to attach to a reply, a note or a new conversation by its id',
      query: UploadQuery,
      file: {
        maxBytes: config.uploadMaxBytes,
        tooLarge: tooLarge(config.uploadMaxBytes),
        description: `The file: its raw bytes (any Content-Type; name it with ?filename=) or a multipart/form-data form with one file part. At most UPLOAD_MAX_BYTES (${config.uploadMaxBytes} here).`,
      },
      responses: { 413: ERROR },
      async before(call) {
        received.set(
          call,
          await receiveFile(call.body as unknown as Buffer | undefined, call.req.headers['content-type'], call.query.filename, config.uploadMaxBytes),
        );
      },
      command: (call, now) => {
        const file = received.get(call)!;
        return createUpload(
          {
            uploadId: call.write.ids.uuid(),
            name: file.name,
            content: file.content,
            contentType: file.contentType,
            size: file.content.length,
            expiresAt: new Date(now.getTime() + config.uploadTtlSeconds * 1000),
            createdBy: uploader(call.principal),
            maxStorage: config.uploadStorageMaxBytes,
          },
          keeping,
        );
      },
      answer: {
        status: 201,
        schema: uploadSchema,
        read: async (tx, [created], { principal }) => {
          const [row] = await namedUploads(keeping, tx, principal.tenantId, [(created!.payload as { upload_id: string }).upload_id]);
          return renderUpload(row!);
        },
      },
    }),

    getRoute({
      path: '/uploads/:id',
      permission: 'conversations:read',
      summary: 'Get an upload: its name, type, size, and the part it went to (or when it expires)',
      resource: uploadSchema,
      what: 'upload',
      find: async ({ principal, params }) => (await namedUploads(keeping, db, principal.tenantId, [params.id]))[0],
      render: renderUpload,
    }),

    route({
      method: 'get',
      path: '/uploads/:id/content',
      permission: 'conversations:read',
      summary: "Download an upload's file (as an attachment, never rendered)",
      responses: { 200: FILE_BYTES, 404: new ResponseDoc('No such upload, or its file is gone (expired, redacted, erased).', ERROR) },
      async handle({ principal, params }: Call<unknown, unknown, '/uploads/:id/content'>) {
        const file = await files.open(db, principal.tenantId, params.id);
        if (!file) throw new NotFound('upload');
        return fileAnswer(file, 'upload');
      },
    }),

    route({
      method: 'get',
      path: '/downloads/:token',
      permission: 'public',
      summary: "Download an attached file by the URL a bridge's delivery carries (no key: the URL is signed, and expires)",
      responses: {
        200: FILE_BYTES,
        404: new ResponseDoc('The URL is not one this service made, has expired (UPLOAD_URL_TTL_SECONDS), or its file is gone (redacted, erased).', ERROR),
      },
      async handle({ params }: Call<unknown, unknown, '/downloads/:token'>) {
        const named = readDownloadToken(deps.sealer, params.token, deps.clock.now());
        const file = named ? await deps.scope.run(named.tenantId, () => files.open(db, named.tenantId, named.uploadId)) : null;
        if (!file) throw new NotFound('download');
        return fileAnswer(file, 'download');
      },
    }),
  ];
}
