// An e-mail channel's address is unique in the instance (issue 32): the SMTP
// receiver finds the workspace by it. Workspaces are locked one by one, so a
// check before the command cannot see a create in another workspace that has
// not committed yet; a unique index on the lower-cased address can.
import { expect } from 'chai';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

describe('e-mail channel addresses are unique in the instance', function () {
  this.timeout(120_000);
  let t: TestService;
  let owners: Member[];
  const create = (m: Member, address: string) =>
    t.client.post('/api/channels', { kind: 'email', name: 'Support', address, default_team_id: null }, { cookie: m.cookie, workspace: m.workspaceId });

  before(async () => {
    // Addresses are unique in the instance whoever holds their domain: with domain verification on, a second workspace
    // would be refused its domain before its address (test/email/email-domains.e2e.test.ts), so the operator vouches here.
    t = await startTestService('email_address', { env: { EMAIL_DOMAIN_VERIFICATION: 'off' } });
    owners = [];
    for (let i = 0; i < 6; i++) owners.push(await newWorkspace(t, `Shop ${i}`));
  });
  after(async () => t?.close());

  it('gives concurrent creates of one address, in any case, exactly one 201 and coded 409s', async () => {
    const answers = await Promise.all(owners.map((m, i) => create(m, i % 2 ? 'Help@Shared.Example' : 'help@shared.example')));
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).to.deep.equal([201, 409, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.errors[0].code).to.equal('channel_address_taken');
    const rows = await t.testDb.db('channels').whereRaw('lower(address) = ?', ['help@shared.example']);
    expect(rows).to.have.length(1);
  });

  it('answers concurrent creates of one address in one workspace the same way: one 201, the others channel_address_taken', async () => {
    const answers = await Promise.all([0, 1, 2].map(() => create(owners[2]!, 'desk@same.example')));
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join('\n')).to.deep.equal([201, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.errors[0].code).to.equal('channel_address_taken');
  });

  it('refuses a support address whose reply addresses could not be delivered, and creates nothing', async () => {
    const m = owners[3]!;
    // 21 characters before the @ are accepted: the tagged reply address is then exactly 64 (RFC 5321).
    const ok = await create(m, `${'a'.repeat(21)}@long.example`);
    expect(ok.status, ok.text).to.equal(201);
    const tooLong = await create(m, `${'b'.repeat(22)}@long.example`);
    expect(tooLong.status, tooLong.text).to.equal(400);
    expect(tooLong.body.errors[0]).to.include({ code: 'address_too_long', field: 'address' });
    const tagged = await create(m, 'help+acme@long.example');
    expect(tagged.status, tagged.text).to.equal(400);
    expect(tagged.body.errors[0]).to.include({ code: 'address_has_tag', field: 'address' });
    const rows = await t.testDb.db('channels').where('address', 'like', '%@long.example');
    expect(rows.map((r: { address: string }) => r.address)).to.deep.equal([`${'a'.repeat(21)}@long.example`]);
  });

  it('frees the address when its channel is deleted', async () => {
    const first = await create(owners[0]!, 'sales@shared.example');
    expect(first.status, first.text).to.equal(201);
    const taken = await create(owners[1]!, 'SALES@shared.example');
    expect(taken.status, taken.text).to.equal(409);
    expect(taken.body.errors[0].code).to.equal('channel_address_taken');
    const del = await t.client.delete(`/api/channels/${first.body.id}`, { cookie: owners[0]!.cookie, workspace: owners[0]!.workspaceId });
    expect(del.status, del.text).to.equal(200);
    const again = await create(owners[1]!, 'SALES@shared.example');
    expect(again.status, again.text).to.equal(201);
    expect(again.body.address).to.equal('sales@shared.example');
  });
});
