// File uploads, through the API: a file uploaded (raw bytes or a multipart
// form), typed by its bytes, served back byte for byte as an attachment;
// attached by id to a reply, a note and a new conversation; refused with coded
// 4xx (too large, over the workspace's storage, unknown, attached, expired);
// expired when attached to nothing; and destroyed with its part's redaction and
// its contact's erasure: no key, no sealed bytes, no name left in the database.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { ManualClock } from '../../src/platform/clock.js';
import { uploadExpiryWorker } from '../../src/capabilities/uploads/index.js';
import { postgresUploadStorage } from '../../src/capabilities/uploads/storage.js';
import { capabilityFixture } from '../support/capability-fixture.js';
import { dumpDatabase, findMarkers } from '../support/database-dump.js';
import { mintKey, newWorkspace } from '../support/service.js';

const MiB = 1024 * 1024;
const marker = (what: string) => `${what}${randomBytes(6).toString('hex')}`;
/** Bytes that start as a JPEG (its SOI and APP0 markers) and are random after. */
const jpeg = (size: number) => Buffer.concat([Buffer.from('ffd8ffe000104a46494600', 'hex'), randomBytes(size - 11)]);

describe('uploads', function () {
  this.timeout(120_000);
  const fx = capabilityFixture('uploads', {
    scopes: ['conversations:read', 'conversations:write', 'conversations:delete', 'contacts:read', 'contacts:write', 'contacts:delete', 'events:read'],
    // Small enough that a second workspace fills its storage with two files.
    env: { UPLOAD_STORAGE_MAX_BYTES: String(8 * MiB) },
  });
  const upload = (bytes: Uint8Array, name = 'file.bin', o: { key?: string; headers?: Record<string, string> } = {}) =>
    fx.t.client.post(`/api/uploads?filename=${encodeURIComponent(name)}`, undefined, { key: o.key ?? fx.key, bytes, headers: o.headers });
  const newConversation = async (extra: Record<string, unknown> = {}, email = `${marker('c')}@example.com`) =>
    fx.ok(fx.t.client.post('/api/conversations', { channel_id: fx.channel.id, body: 'Hello', contact: { email }, ...extra }, fx.as()), 201);
  const reply = (conversationId: string, body: Record<string, unknown>) =>
    fx.t.client.post(`/api/conversations/${conversationId}/reply`, { message_type: 'comment', body: 'See attached', ...body }, fx.as());

  it('takes a 5 MB file, types it by its bytes (not by what the client said), and serves it back byte for byte, as an attachment', async () => {
    const bytes = jpeg(5 * MiB);
    const created = await fx.spec({
      when: () => upload(bytes, 'diagram.jpg', { headers: { 'content-type': 'text/html' } }),
      then: {
        status: 201,
        body: { type: 'upload', name: 'diagram.jpg', content_type: 'image/jpeg', size: bytes.length, part_id: null },
        events: ['upload.created'],
      },
    });
    expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).to.equal(3600_000);
    expect(await fx.ok(fx.t.client.get(`/api/uploads/${created.id}`, fx.as()))).to.deep.equal(created);

    const got = await fx.t.client.get(`/api/uploads/${created.id}/content`, fx.as());
    expect(got.status).to.equal(200);
    expect(got.bytes.equals(bytes), 'the same bytes').to.equal(true);
    expect(got.headers.get('content-type')).to.equal('image/jpeg');
    expect(got.headers.get('content-disposition')).to.equal(`attachment; filename="diagram.jpg"; filename*=UTF-8''diagram.jpg`);
    expect(got.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(got.headers.get('content-security-policy')).to.equal("default-src 'none'; sandbox");
  });

  it('answers a retry with the same Idempotency-Key with the same upload, stored once; other bytes under that key are refused', async () => {
    const bytes = jpeg(4096);
    const headers = { 'idempotency-key': marker('up') };
    const first = await fx.ok(upload(bytes, 'once.jpg', { headers }), 201);
    const again = await upload(bytes, 'once.jpg', { headers });
    expect([again.status, again.body]).to.deep.equal([201, first]);
    expect(await fx.t.testDb.db('upload_contents').where({ id: first.id })).to.have.length(1);
    const other = await upload(jpeg(4096), 'once.jpg', { headers });
    expect(other.status).to.equal(422);
  });

  it('takes a multipart form with one file part; text is typed text/plain, unknown bytes application/octet-stream; a path is cut to its name', async () => {
    const form = new FormData();
    form.append('note', 'ignored');
    form.append('file', new Blob(['plain words, no magic number\n']), 'C:\\Users\\ann\\notes.txt');
    const res = await fetch(`${fx.t.client.base}/api/uploads`, { method: 'POST', headers: { authorization: `Bearer ${fx.key}` }, body: form });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).to.equal(201);
    expect(body).to.include({ name: 'notes.txt', content_type: 'text/plain', size: 29 });
    const binary = await fx.ok(upload(Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 7]), 'blob'), 201);
    expect(binary.content_type).to.equal('application/octet-stream');
  });

  it('refuses a 25 MB file (413 upload_too_large, by its length or as it streams), an empty one, a nameless one, and a form without one file', async () => {
    const uploadsInFeed = async () => (await fx.ok(fx.t.client.get('/api/events?types=upload.created&per_page=100', fx.as()))).data.length;
    const before = await uploadsInFeed();
    const big = Buffer.alloc(25 * MiB, 1);
    const declared = await upload(big, 'big.bin');
    expect(declared.status, declared.text).to.equal(413);
    expect(declared.body.errors[0].code).to.equal('upload_too_large');
    // Chunked: no Content-Length to refuse by, so the parser stops reading at the cap.
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 25; i++) c.enqueue(new Uint8Array(MiB));
        c.close();
      },
    });
    const chunked = await fetch(`${fx.t.client.base}/api/uploads?filename=big.bin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/octet-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).to.equal(413);
    expect(((await chunked.json()) as { errors: { code: string }[] }).errors[0]!.code).to.equal('upload_too_large');

    expect((await upload(Buffer.alloc(0))).body.errors[0].code).to.equal('invalid_upload');
    const bodiless = await fx.t.client.post('/api/uploads?filename=none.bin', undefined, { key: fx.key });
    expect([bodiless.status, bodiless.body.errors[0].code]).to.deep.equal([400, 'invalid_upload']);
    const nameless = await fx.t.client.post('/api/uploads', undefined, { key: fx.key, bytes: Buffer.from('x') });
    expect([nameless.status, nameless.body.errors[0].field]).to.deep.equal([400, 'filename']);
    const empty = new FormData();
    empty.append('note', 'no file here');
    const noFile = await fetch(`${fx.t.client.base}/api/uploads`, { method: 'POST', headers: { authorization: `Bearer ${fx.key}` }, body: empty });
    expect(noFile.status).to.equal(400);
    // Nothing was appended by any of them.
    expect(await uploadsInFeed()).to.equal(before);
  });

  it("refuses an upload that would take a workspace past its storage (413 storage_quota_exceeded); another workspace's storage is its own", async () => {
    const other = await newWorkspace(fx.t, 'Small');
    const key = (await mintKey(fx.t, other, ['conversations:read', 'conversations:write'])).secret;
    await fx.ok(upload(jpeg(5 * MiB), 'a.jpg', { key }), 201);
    const full = await upload(jpeg(5 * MiB), 'b.jpg', { key });
    expect([full.status, full.body.errors[0].code]).to.deep.equal([413, 'storage_quota_exceeded']);
    await fx.ok(upload(jpeg(1 * MiB), 'c.jpg', { key }), 201);
    // Its files are not this workspace's either.
    const theirs = await fx.ok(upload(jpeg(1024), 'd.jpg', { key }), 201);
    expect((await fx.t.client.get(`/api/uploads/${theirs.id}`, fx.as())).status).to.equal(404);
    const attach = await reply((await newConversation()).id, { upload_ids: [theirs.id] });
    expect([attach.status, attach.body.errors[0].code]).to.deep.equal([400, 'unknown_upload']);
  });

  it('attaches uploads to a reply, a note and a new conversation (upload_ids); an attached one is refused a second time (409), an unknown one 400', async () => {
    const a = await fx.ok(upload(jpeg(2048), 'a.jpg'), 201);
    const b = await fx.ok(upload(Buffer.from('hello'), 'b.txt'), 201);
    const started = await newConversation({ upload_ids: [a.id] });
    const opening = started.parts[0];
    expect(opening.attachments).to.deep.equal([
      { url: `/api/uploads/${a.id}/content`, upload_id: a.id, name: 'a.jpg', content_type: 'image/jpeg', size: 2048 },
    ]);

    const note = await fx.spec({
      // Ids in any case name the same upload.
      when: () => reply(started.id, { message_type: 'note', upload_ids: [b.id.toUpperCase()] }),
      then: { status: 201, events: ['conversation_part.created', 'upload.attached'] },
    });
    expect(note.attachments).to.deep.equal([{ url: `/api/uploads/${b.id}/content`, upload_id: b.id, name: 'b.txt', content_type: 'text/plain', size: 5 }]);
    // Its key is the part's now: the part's redaction destroys it.
    const [key] = await fx.t.testDb.db('data_keys').where({ subject: `upload:${b.id}` });
    expect(key.owner).to.equal(`part:${note.id}`);
    expect((await fx.t.client.get(`/api/uploads/${b.id.toUpperCase()}/content`, fx.as())).text).to.equal('hello');
    const attached = await fx.ok(fx.t.client.get(`/api/uploads/${b.id}`, fx.as()));
    expect(attached).to.include({ part_id: note.id, conversation_id: started.id, expires_at: null });
    // The part's event names the upload in the clear (its attachments are sealed personal data).
    const parts = await fx.ok(fx.t.client.get('/api/events?types=conversation_part.created&per_page=100', fx.as()));
    expect(parts.data.find((e: { payload: { part_id: string } }) => e.payload.part_id === note.id).payload.upload_ids).to.deep.equal([b.id]);

    const again = await reply(started.id, { upload_ids: [b.id] });
    expect([again.status, again.body.errors[0].code]).to.deep.equal([409, 'upload_attached']);
    const unknown = await reply(started.id, { upload_ids: ['00000000-0000-4000-8000-000000000000'] });
    expect([unknown.status, unknown.body.errors[0].code, unknown.body.errors[0].field]).to.deep.equal([400, 'unknown_upload', 'upload_ids[0]']);
    const tooMany = await reply(started.id, {
      upload_ids: Array.from({ length: 11 }, (_, i) => `00000000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`),
    });
    expect(tooMany.status).to.equal(400);
  });

  it('expires an upload attached to nothing: refused once past its time (422 upload_expired), then deleted by the expiry with its event', async () => {
    const u = await fx.ok(upload(jpeg(1024), 'late.jpg'), 201);
    const conversation = await newConversation();
    (fx.t.clock as ManualClock).advance(3600_000 + 1000);
    const late = await reply(conversation.id, { upload_ids: [u.id] });
    expect([late.status, late.body.errors[0].code]).to.deep.equal([422, 'upload_expired']);
    const expiry = uploadExpiryWorker(fx.t.service.deps, postgresUploadStorage);
    expect(await expiry.tick()).to.be.at.least(1);
    const feed = await fx.ok(fx.t.client.get('/api/events?types=upload.expired', fx.as()));
    expect(feed.data.map((e: { payload: { upload_id: string } }) => e.payload.upload_id)).to.include(u.id);
    expect((await fx.t.client.get(`/api/uploads/${u.id}/content`, fx.as())).status).to.equal(404);
    expect((await fx.t.client.get(`/api/uploads/${u.id}`, fx.as())).status).to.equal(404);
    const rows = await fx.t.testDb.db('upload_contents').where({ id: u.id });
    expect(rows).to.have.length(0);
    // An attached one never expires.
    expect(await expiry.tick()).to.equal(0);
  });

  it("is destroyed with its part's redaction: the file, its name and its key", async () => {
    const name = `${marker('redact')}.txt`;
    const u = await fx.ok(upload(Buffer.from('to be redacted'), name), 201);
    const conversation = await newConversation();
    const part = await fx.ok(reply(conversation.id, { upload_ids: [u.id] }), 201);
    expect((await fx.t.client.get(`/api/uploads/${u.id}/content`, fx.as())).text).to.equal('to be redacted');
    await fx.ok(fx.t.client.post(`/api/conversations/${conversation.id}/parts/${part.id}/redact`, undefined, fx.as()));
    expect((await fx.t.client.get(`/api/uploads/${u.id}/content`, fx.as())).status).to.equal(404);
    expect(await fx.t.testDb.db('data_keys').where({ subject: `upload:${u.id}` })).to.have.length(0);
    expect(await fx.t.testDb.db('upload_contents').where({ id: u.id })).to.have.length(0);
    expect(findMarkers(await dumpDatabase(fx.t.testDb.db), { name })).to.deep.equal([]);
  });

  it("is destroyed with its contact's erasure: a dump finds none of its sealed bytes, nor its name, nor its key", async () => {
    const name = `${marker('erase')}.jpg`;
    const u = await fx.ok(upload(jpeg(64 * 1024), name), 201);
    const conversation = await newConversation({ upload_ids: [u.id] });
    const [stored] = await fx.t.testDb.db('upload_contents').where({ id: u.id });
    // What the database holds of the file is sealed: a run of it stands for it in the dump (bytea shows as hex).
    const sealedRun = (stored.sealed as Buffer).subarray(1000, 1032).toString('hex');
    const before = await dumpDatabase(fx.t.testDb.db);
    expect(before).to.include(sealedRun);
    // The attachment's name is in the part's read model until the erasure (the search is shown to find it).
    expect(findMarkers(before, { name })).to.have.length(1);

    const erase = await fx.t.client.delete(`/api/contacts/${conversation.contact_id}`, fx.as());
    expect(erase.status, erase.text).to.equal(200);
    const after = await dumpDatabase(fx.t.testDb.db);
    expect(after).to.not.include(sealedRun);
    expect(findMarkers(after, { name })).to.deep.equal([]);
    expect(await fx.t.testDb.db('data_keys').where({ subject: `upload:${u.id}` })).to.have.length(0);
    expect((await fx.t.client.get(`/api/uploads/${u.id}/content`, fx.as())).status).to.equal(404);
  });
});
