// E-mail domains (issue 43, finding 3): a domain belongs to the workspace that
// proves it controls the domain's DNS. The service asks a real DNS server of the
// test's own on 127.0.0.1 (DNS_SERVERS), not a resolver set inside the process.
import { expect } from 'chai';
import { mailDns } from '../../src/capabilities/email/index.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { txtDnsServer } from './mail-rig.js';

describe('e-mail domains: verified by a TXT record, one workspace each (DNS_SERVERS)', function () {
  this.timeout(60_000);
  let t: TestService;
  let dns: Awaited<ReturnType<typeof txtDnsServer>>;
  const records = new Map<string, string[]>();
  let a: Member;
  let b: Member;
  const as = (m: Member) => ({ cookie: m.cookie, workspace: m.workspaceId });
  const addDomain = (m: Member, domain: string) => t.client.post('/api/email_domains', { domain }, as(m));
  const verify = (m: Member, id: string) => t.client.post(`/api/email_domains/${id}/verify`, undefined, as(m));
  const publish = (txt: { name: string; value: string }) => records.set(txt.name, [...(records.get(txt.name) ?? []), txt.value]);
  const emailChannel = (m: Member, address: string) =>
    t.client.post('/api/channels', { kind: 'email', name: `Mail ${address}`, address, default_team_id: null }, as(m));

  before(async () => {
    // Nothing in this process answers for the DNS: every look-up goes to the server below.
    delete mailDns.resolver;
    dns = await txtDnsServer(records);
    t = await startTestService('email_domains', { env: { DNS_SERVERS: `127.0.0.1:${dns.port}` } });
    a = await newWorkspace(t, 'A');
    b = await newWorkspace(t, 'B');
  });
  after(async () => {
    await t?.close();
    await dns?.close();
  });

  it('adds a domain as pending with its TXT record, and verifies it once the DNS server holds the record', async () => {
    const added = await addDomain(a, 'A.Example.');
    expect(added.status, added.text).to.equal(201);
    expect(added.body).to.include({ type: 'email_domain', domain: 'a.example', status: 'pending' });
    expect(added.body.txt_record.name).to.equal('_conversation-service.a.example');
    expect(added.body.txt_record.value).to.match(/^conversation-service-verification=[A-Za-z0-9_-]{32}$/);
    // Not published yet: the server is asked and has nothing.
    const early = await verify(a, added.body.id);
    expect(early.status, early.text).to.equal(409);
    expect(early.body.errors[0].code).to.equal('domain_not_verified');
    expect(dns.asked).to.include('_conversation-service.a.example');
    // Someone else's token at the name proves nothing.
    publish({ name: added.body.txt_record.name, value: 'conversation-service-verification=someone-elses-token' });
    expect((await verify(a, added.body.id)).status).to.equal(409);
    publish(added.body.txt_record);
    const ok = await verify(a, added.body.id);
    expect(ok.status, ok.text).to.equal(200);
    expect(ok.body).to.include({ id: added.body.id, domain: 'a.example', status: 'verified' });
    // A repeat answers the same and appends nothing.
    expect((await verify(a, added.body.id)).body.status).to.equal('verified');
    const one = await t.client.get(`/api/email_domains/${added.body.id}`, as(a));
    expect(one.status).to.equal(200);
    expect(one.body).to.include({ status: 'verified', domain: 'a.example' });
    const list = await t.client.get('/api/email_domains', as(a));
    expect(list.status).to.equal(200);
    expect(list.body.type).to.equal('list');
    expect(list.body.data.map((d: { domain: string }) => d.domain)).to.deep.equal(['a.example']);
    // B sees none of A's domains.
    expect((await t.client.get('/api/email_domains', as(b))).body.data).to.deep.equal([]);
    expect((await t.client.get(`/api/email_domains/${added.body.id}`, as(b))).status).to.equal(404);
    const feed = await t.client.get('/api/events?after_seq=0&types=email_domain.created,email_domain.verified&per_page=100', as(a));
    expect(feed.body.data.map((e: { type: string }) => e.type)).to.deep.equal(['email_domain.created', 'email_domain.verified']);
  });

  it('refuses an e-mail channel on a domain its workspace has not verified, and takes one on a verified domain', async () => {
    const refused = await emailChannel(a, 'help@unproven.example');
    expect(refused.status, refused.text).to.equal(409);
    expect(refused.body.errors[0].code).to.equal('domain_not_verified');
    // Pending is not verified.
    expect((await addDomain(a, 'unproven.example')).status).to.equal(201);
    expect((await emailChannel(a, 'help@unproven.example')).body.errors[0].code).to.equal('domain_not_verified');
    const ok = await emailChannel(a, 'billing@a.example');
    expect(ok.status, ok.text).to.equal(201);
  });

  it('answers 409 domain_taken to every other workspace for a domain one verified: adding it, verifying it, a channel on it', async () => {
    const added = await addDomain(b, 'a.example');
    expect(added.status, added.text).to.equal(409);
    expect(added.body.errors[0].code).to.equal('domain_taken');
    // The finding's reproduction: B claims an address A has not made yet on A's domain.
    const claim = await emailChannel(b, 'invoices@a.example');
    expect(claim.status, claim.text).to.equal(409);
    expect(claim.body.errors[0].code).to.equal('domain_taken');
    // Both pending, both published: the first to verify holds it, the other is refused even with its record in place.
    const da = await addDomain(a, 'shared.example');
    const db = await addDomain(b, 'shared.example');
    expect([da.status, db.status]).to.deep.equal([201, 201]);
    publish(da.body.txt_record);
    publish(db.body.txt_record);
    expect((await verify(a, da.body.id)).status).to.equal(200);
    const late = await verify(b, db.body.id);
    expect(late.status, late.text).to.equal(409);
    expect(late.body.errors[0].code).to.equal('domain_taken');
    expect((await t.client.get(`/api/email_domains/${db.body.id}`, as(b))).body.status).to.equal('pending');
  });

  it('gives a domain verified at the same moment by two workspaces to exactly one of them', async () => {
    const da = await addDomain(a, 'race.example');
    const db = await addDomain(b, 'race.example');
    publish(da.body.txt_record);
    publish(db.body.txt_record);
    const [ra, rb] = await Promise.all([verify(a, da.body.id), verify(b, db.body.id)]);
    expect([ra.status, rb.status].sort()).to.deep.equal([200, 409]);
    expect([ra, rb].find((r) => r.status === 409)!.body.errors[0].code).to.equal('domain_taken');
  });

  it('frees a deleted domain for another workspace; a deleted domain is gone', async () => {
    const da = await addDomain(a, 'moving.example');
    publish(da.body.txt_record);
    expect((await verify(a, da.body.id)).status).to.equal(200);
    const gone = await t.client.delete(`/api/email_domains/${da.body.id}`, as(a));
    expect(gone.status, gone.text).to.equal(200);
    expect(gone.body).to.deep.equal({ type: 'email_domain', id: da.body.id, deleted: true });
    expect((await t.client.get(`/api/email_domains/${da.body.id}`, as(a))).status).to.equal(404);
    expect((await t.client.delete(`/api/email_domains/${da.body.id}`, as(a))).status).to.equal(404);
    const db = await addDomain(b, 'moving.example');
    expect(db.status, db.text).to.equal(201);
    publish(db.body.txt_record);
    expect((await verify(b, db.body.id)).body.status).to.equal('verified');
    expect((await emailChannel(b, 'help@moving.example')).status).to.equal(201);
  });

  it('answers hostile input with a coded 4xx, never a 5xx', async () => {
    for (const domain of [
      'not a domain',
      '-x.example',
      'x-.example',
      'localhost',
      `${'a'.repeat(64)}.example`,
      'a..example',
      'ex\u0000ample.com',
      'ä.example',
    ]) {
      const r = await addDomain(a, domain);
      expect(r.status, `${domain}: ${r.text}`).to.equal(400);
    }
    expect((await addDomain(a, 'a.example')).body.errors[0].code).to.equal('email_domain_exists');
    expect((await verify(a, 'not-a-uuid')).status).to.equal(404);
    expect((await verify(a, '00000000-0000-4000-8000-000000000000')).status).to.equal(404);
  });
});
