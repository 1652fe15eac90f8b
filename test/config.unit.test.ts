import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', function () {
  it('defaults to port 3000 on 127.0.0.1, ./.data resolved, the embedded database and the Postgres event store', () => {
    const c = loadConfig({});
    expect(c.port).to.equal(3000);
    expect(c.host).to.equal('127.0.0.1');
    expect(c.dataDir).to.equal(path.resolve('./.data'));
    expect(path.isAbsolute(c.dataDir)).to.equal(true);
    expect(c.databaseUrl).to.equal(null);
    expect(c.eventstoreUrl).to.equal(null);
    expect(c.channelsSecret).to.equal(null);
    expect(c.logLevel).to.equal('info');
    expect(c.workers).to.equal(true);
  });

  it('treats blank values as unset and resolves a relative DATA_DIR', () => {
    const c = loadConfig({ PORT: '  ', DATABASE_URL: '', DATA_DIR: 'some/dir' });
    expect(c.port).to.equal(3000);
    expect(c.databaseUrl).to.equal(null);
    expect(c.dataDir).to.equal(path.resolve('some/dir'));
  });

  it('accepts good values', () => {
    const c = loadConfig({
      PORT: '0',
      HOST: '::1',
      DATABASE_URL: 'postgresql://u:p@db:5432/app',
      EVENTSTORE_URL: 'esdb://localhost:2113?tls=false',
      SERVICE_CHANNELS_SECRET: 'x'.repeat(32),
      LOG_LEVEL: 'debug',
    });
    expect(c).to.include({
      port: 0,
      host: '::1',
      databaseUrl: 'postgresql://u:p@db:5432/app',
      eventstoreUrl: 'esdb://localhost:2113?tls=false',
      logLevel: 'debug',
    });
  });

  it("takes an EventStoreDB cluster's connection string, which lists its nodes (not a WHATWG URL), and still checks every host", () => {
    // Found on a three-node cluster (docs/eventstoredb.md, "Losing the leader"): the service refused to start with one.
    for (const good of [
      'esdb://127.0.0.1:2113,127.0.0.1:2123,127.0.0.1:2133?tls=false',
      'esdb://admin:changeit@a.example:2113,b.example:2113,c.example:2113',
      'kurrentdb://u:p@h1:2113,h2:2113/?tls=false',
      'esdb+discover://cluster.example:2113',
    ]) {
      expect(loadConfig({ EVENTSTORE_URL: good }).eventstoreUrl, good).to.equal(good);
    }
    for (const bad of [
      'esdb://h1:2113,,h2:2113',
      'esdb://h1:2113,h2:99999',
      'esdb://h1:2113,h 2:2113',
      'esdb://h1:2113,:2113',
      'esdb://',
      'http://h1:2113,h2:2113',
    ]) {
      expect(() => loadConfig({ EVENTSTORE_URL: bad }), bad).to.throw(ConfigError, /EVENTSTORE_URL/);
    }
  });

  it('names the EventStoreDB workspace streams tenant-<uuid> unless EVENTSTORE_STREAM_PREFIX says otherwise, and refuses a bad prefix', () => {
    expect(loadConfig({}).eventstoreStreamPrefix).to.equal('tenant-');
    expect(loadConfig({ EVENTSTORE_STREAM_PREFIX: 'test.t_feed_a1b2c3-' }).eventstoreStreamPrefix).to.equal('test.t_feed_a1b2c3-');
    for (const bad of ['tenant', '$ce-', 'a b-', '-x-']) {
      expect(() => loadConfig({ EVENTSTORE_STREAM_PREFIX: bad }), bad).to.throw(ConfigError, /EVENTSTORE_STREAM_PREFIX/);
    }
  });

  it('reads the mail settings: no relay by default, smtp(s) URLs only, a sender address, the public URL and the reset link lifetime', () => {
    expect(loadConfig({})).to.include({ smtpRelayUrl: null, publicUrl: 'http://127.0.0.1:3000', passwordResetTtlMinutes: 30 });
    const c = loadConfig({
      SMTP_RELAY_URL: 'smtps://user:p%40ss@relay.example:465',
      MAIL_FROM: 'Support <no-reply@acme.example>',
      PUBLIC_URL: 'https://help.acme.example/',
      PASSWORD_RESET_TTL_MINUTES: '15',
    });
    expect(c).to.include({
      smtpRelayUrl: 'smtps://user:p%40ss@relay.example:465',
      mailFrom: 'Support <no-reply@acme.example>',
      publicUrl: 'https://help.acme.example',
      passwordResetTtlMinutes: 15,
    });
    expect(loadConfig({ MAIL_FROM: 'no-reply@acme.example' }).mailFrom).to.equal('no-reply@acme.example');
    for (const [name, bad] of [
      ['SMTP_RELAY_URL', 'http://relay.example'],
      ['SMTP_RELAY_URL', 'not a url'],
      ['MAIL_FROM', 'nobody'],
      ['MAIL_FROM', 'A <b>'],
      ['PUBLIC_URL', 'ftp://x.example'],
      ['PASSWORD_RESET_TTL_MINUTES', '0'],
    ] as const)
      expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).to.throw(ConfigError, name);
  });

  it('reads EXPORT_TTL_HOURS (default 48) and refuses a value that is not a whole number of hours from 1', () => {
    expect(loadConfig({}).exportTtlHours).to.equal(48);
    expect(loadConfig({ EXPORT_TTL_HOURS: '6' }).exportTtlHours).to.equal(6);
    for (const bad of ['0', '1.5', 'two', '-1']) expect(() => loadConfig({ EXPORT_TTL_HOURS: bad }), bad).to.throw(ConfigError, 'EXPORT_TTL_HOURS');
  });

  it('reads the outbound worker settings (batch, lease, interval, poll) with defaults, and refuses bad values', () => {
    expect(loadConfig({})).to.include({ outboundBatch: 50, outboundLeaseMs: 60_000, outboundIntervalMs: 0, outboundPollMs: 2_000 });
    expect(loadConfig({ OUTBOUND_BATCH: '10', OUTBOUND_LEASE_MS: '1500', OUTBOUND_INTERVAL_MS: '15', OUTBOUND_POLL_MS: '200' })).to.include({
      outboundBatch: 10,
      outboundLeaseMs: 1500,
      outboundIntervalMs: 15,
      outboundPollMs: 200,
    });
    for (const [name, bad] of [
      ['OUTBOUND_BATCH', '0'],
      ['OUTBOUND_LEASE_MS', '10'],
      ['OUTBOUND_INTERVAL_MS', '-1'],
      ['OUTBOUND_POLL_MS', 'soon'],
    ] as const) {
      expect(() => loadConfig({ [name]: bad }), name).to.throw(ConfigError, name);
    }
  });

  it('reads METRICS_TOKEN (unset: null) and refuses a short or spaced one', () => {
    expect(loadConfig({}).metricsToken).to.equal(null);
    expect(loadConfig({ METRICS_TOKEN: 'metrics-token-0123456789' }).metricsToken).to.equal('metrics-token-0123456789');
    for (const bad of ['short', 'has a space in it 0123456789']) expect(() => loadConfig({ METRICS_TOKEN: bad }), bad).to.throw(ConfigError, 'METRICS_TOKEN');
  });

  it('reads EMAIL_DOMAIN_VERIFICATION (on unless off) and DNS_SERVERS (host:port entries, IP hosts), refusing bad values', () => {
    expect(loadConfig({}).emailDomainVerification).to.equal(true);
    expect(loadConfig({ EMAIL_DOMAIN_VERIFICATION: 'off' }).emailDomainVerification).to.equal(false);
    expect(() => loadConfig({ EMAIL_DOMAIN_VERIFICATION: 'no' })).to.throw(ConfigError, /EMAIL_DOMAIN_VERIFICATION must be on or off/);
    expect(loadConfig({}).dnsServers).to.equal(null);
    expect(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, 10.0.0.2,[::1]:53' }).dnsServers).to.deep.equal(['127.0.0.1:5353', '10.0.0.2', '[::1]:53']);
    for (const bad of ['resolver.example:53', '127.0.0.1:0', '127.0.0.1:70000', '[::1]:x', '1.2.3:53'])
      expect(() => loadConfig({ DNS_SERVERS: bad }), bad).to.throw(ConfigError, /DNS_SERVERS/);
  });

  it('reads TRUST_PROXY as a list of proxies and refuses entries that are neither IPs, CIDRs nor the named ranges', () => {
    expect(loadConfig({}).trustProxy).to.deep.equal([]);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8,loopback' }).trustProxy).to.deep.equal([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['nginx.internal', '10.0.0.0/33', '::1/129', '1.2.3.4/8/1', 'true']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).to.throw(ConfigError, 'TRUST_PROXY');
    }
  });

  it('reports every bad value in one ConfigError, not just the first', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', SERVICE_CHANNELS_SECRET: 'short' });
    } catch (e) {
      caught = e;
    }
    expect(caught).to.be.instanceOf(ConfigError);
    const err = caught as ConfigError;
    expect(err.problems).to.have.length(4);
    const about = (name: string) => err.problems.filter((p) => p.startsWith(name));
    expect(about('PORT')).to.have.length(1);
    expect(about('PORT')[0]).to.include('"abc"');
    expect(about('LOG_LEVEL')).to.have.length(1);
    expect(about('LOG_LEVEL')[0]).to.include('"loud"');
    expect(about('DATABASE_URL')).to.have.length(1);
    expect(about('DATABASE_URL')[0]).to.include('postgres:');
    expect(about('SERVICE_CHANNELS_SECRET')).to.have.length(1);
    expect(about('SERVICE_CHANNELS_SECRET')[0]).to.include('32');
    // The message an operator sees names each of them, one per line.
    for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL', 'SERVICE_CHANNELS_SECRET']) expect(err.message).to.match(new RegExp(`^  - ${name} `, 'm'));
    expect(err.message).to.not.include('short'); // the secret's value is never echoed
  });

  it('refuses an out-of-range port and an unparsable URL', () => {
    expect(() => loadConfig({ PORT: '70000' })).to.throw(ConfigError, /PORT must be an integer from 0 to 65535/);
    expect(() => loadConfig({ PORT: '80.5' })).to.throw(ConfigError, /PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).to.throw(ConfigError, /DATABASE_URL is not a valid URL/);
  });
});
