// A model of an EventStoreDB server, spoken to over real gRPC by the real
// @eventstore/db-client: Streams.Read (stream and $all reads, $all
// subscriptions with a stream-prefix filter), Streams.Append and
// ServerFeatures.GetSupportedMethods. It is NOT EventStoreDB and proves nothing
// about one; it models the documented behaviour the adapter's guards are about,
// so those guards can be watched failing on a machine without a server:
//   - idempotency by IndexWriter.CheckCommit: an append at an expected revision
//     below the current one is compared with the events after it (same ids: the
//     stored events are answered, nothing written; first id only: wrong expected
//     version); at the current revision it is simply written, the same ids again;
//     with ANY only a bounded in-memory cache of recent ids is consulted
//     (`forgetIdCache()` models a restart);
//   - reads from a revision/position: stream reads inclusive, $all reads
//     inclusive of their start position, $all subscriptions exclusive;
//   - the maximum append size (1 MiB by default) answered as the server does;
//   - the server version from GetSupportedMethods (and UNIMPLEMENTED before 21.10);
//   - `stallReads`: reads are accepted and never answered (a server that hangs),
//     counting calls still open and calls the client cancelled;
//   - `refuseAppends`: appends answered with a gRPC status and nothing written, as a
//     node answers during an election (UNAVAILABLE "Server Is Not Ready", what
//     EventStore.Core's RpcExceptions.ServerNotReady sends on the unary path).
import * as grpc from '@grpc/grpc-js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import streamsGrpc from '@eventstore/db-client/generated/streams_grpc_pb.js';
import streamsPb from '@eventstore/db-client/generated/streams_pb.js';
import featuresGrpc from '@eventstore/db-client/generated/serverfeatures_grpc_pb.js';
import featuresPb from '@eventstore/db-client/generated/serverfeatures_pb.js';
import type {
  ReadReq as ReadReqT,
  ReadResp as ReadRespT,
  AppendReq as AppendReqT,
  AppendResp as AppendRespT,
} from '@eventstore/db-client/generated/streams_pb.js';

const { ReadResp, AppendResp } = streamsPb;
const { UUID, StreamIdentifier, Empty } = sharedPb;

interface Rec {
  stream: string;
  revision: bigint;
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  metadata: Uint8Array;
  position: bigint;
  created: bigint;
}

interface Live {
  after: bigint;
  prefixes: string[] | null;
  call: grpc.ServerWritableStream<ReadReqT, ReadRespT>;
}

const ID_CACHE = 1000;

export class EsdbModelServer {
  /** what GetSupportedMethods answers; null: UNIMPLEMENTED (a server before 21.10) */
  version: string | null = '24.10.0.0';
  /** reads are accepted and never answered */
  stallReads = false;
  maxAppendSize = 1_048_576;
  /** appends are refused with this status (nothing written); null: taken */
  refuseAppends: { code: grpc.status; details: string } | null = null;
  /** every Read call started, and those the client cancelled */
  readsStarted = 0;
  readsCancelled = 0;
  private openReads = new Set<grpc.ServerWritableStream<ReadReqT, ReadRespT>>();
  private readonly log: Rec[] = [];
  private readonly streams = new Map<string, Rec[]>();
  private readonly idCache = new Map<string, Rec>();
  private readonly live = new Set<Live>();
  private nextPosition = 1000n;
  private server: grpc.Server | null = null;
  url = '';

  async start(): Promise<string> {
    const server = new grpc.Server();
    server.addService(streamsGrpc.StreamsService, {
      read: (call: grpc.ServerWritableStream<ReadReqT, ReadRespT>) => this.read(call),
      append: (call: grpc.ServerReadableStream<AppendReqT, AppendRespT>, cb: grpc.sendUnaryData<AppendRespT>) => this.append(call, cb),
      delete: (_c: unknown, cb: grpc.sendUnaryData<never>) => cb({ code: grpc.status.UNIMPLEMENTED }),
      tombstone: (_c: unknown, cb: grpc.sendUnaryData<never>) => cb({ code: grpc.status.UNIMPLEMENTED }),
      batchAppend: (call: grpc.ServerDuplexStream<unknown, unknown>) => call.emit('error', { code: grpc.status.UNIMPLEMENTED }),
    });
    server.addService(featuresGrpc.ServerFeaturesService, {
      getSupportedMethods: (_call: unknown, cb: grpc.sendUnaryData<unknown>) => {
        if (this.version === null) return cb({ code: grpc.status.UNIMPLEMENTED, details: 'unknown service' });
        const methods = ['read', 'append'].map((m) => new featuresPb.SupportedMethod().setServiceName('event_store.client.streams.streams').setMethodName(m));
        cb(null, new featuresPb.SupportedMethods().setEventStoreServerVersion(this.version).setMethodsList(methods));
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    this.server = server;
    // Deadlines here are the client's own; every test connection names a short keepalive off.
    this.url = `esdb://127.0.0.1:${port}?tls=false`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const l of this.live) l.call.end();
    this.live.clear();
    for (const c of this.openReads) c.end();
    this.openReads.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.tryShutdown(() => resolve()) : resolve()));
    this.server?.forceShutdown();
  }

  /** Read calls neither finished nor cancelled. */
  get readsOpen(): number {
    return this.openReads.size;
  }

  /** A restart: the best-effort cache behind ANY forgets every id. */
  forgetIdCache(): void {
    this.idCache.clear();
  }

  /** Writes records as another writer would (system records, foreign events); no checks. */
  writeRaw(stream: string, events: { id: string; type: string; data: unknown; contentType?: string }[]): void {
    const list = this.streams.get(stream) ?? [];
    for (const e of events) {
      const rec: Rec = {
        stream,
        revision: BigInt(list.length),
        id: e.id,
        type: e.type,
        contentType: e.contentType ?? 'application/json',
        data: Buffer.from(typeof e.data === 'string' ? e.data : JSON.stringify(e.data)),
        metadata: new Uint8Array(),
        position: (this.nextPosition += 137n),
        created: BigInt(Date.now()) * 10_000n,
      };
      list.push(rec);
      this.log.push(rec);
      this.notify(rec);
    }
    this.streams.set(stream, list);
  }

  /** The stored ids of a stream, in order (what the tests compare against). */
  idsOf(stream: string): string[] {
    return (this.streams.get(stream) ?? []).map((r) => r.id);
  }

  private recorded(rec: Rec): InstanceType<typeof ReadResp.ReadEvent> {
    const e = new ReadResp.ReadEvent.RecordedEvent();
    e.setId(new UUID().setString(rec.id));
    e.setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(rec.stream)));
    e.setStreamRevision(rec.revision.toString());
    e.setPreparePosition(rec.position.toString());
    e.setCommitPosition(rec.position.toString());
    e.getMetadataMap().set('type', rec.type).set('content-type', rec.contentType).set('created', rec.created.toString());
    e.setData(rec.data);
    e.setCustomMetadata(rec.metadata);
    const re = new ReadResp.ReadEvent();
    re.setEvent(e);
    re.setCommitPosition(rec.position.toString());
    return re;
  }

  private send(call: grpc.ServerWritableStream<ReadReqT, ReadRespT>, rec: Rec): void {
    call.write(new ReadResp().setEvent(this.recorded(rec))); // live: a subscription's buffer is the server's concern
  }

  private read(call: grpc.ServerWritableStream<ReadReqT, ReadRespT>): void {
    this.readsStarted++;
    this.openReads.add(call);
    call.on('cancelled', () => {
      if (this.openReads.delete(call)) this.readsCancelled++;
    });
    if (this.stallReads) return; // answered never: only the client's cancellation ends it
    const opts = call.request.getOptions()!;
    const count = opts.hasCount() ? Number(opts.getCount()) : Number.MAX_SAFE_INTEGER;
    const backwards = opts.getReadDirection() === 1;
    if (opts.hasSubscription()) return this.subscribe(call, opts);
    let out: Rec[];
    if (opts.hasStream()) {
      const so = opts.getStream()!;
      const name = Buffer.from(so.getStreamIdentifier()!.getStreamName_asU8()).toString('utf8');
      const list = this.streams.get(name);
      if (!list || list.length === 0) {
        const nf = new ReadResp.StreamNotFound().setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(name)));
        call.write(new ReadResp().setStreamNotFound(nf));
        this.end(call);
        return;
      }
      if (backwards) {
        const from = so.hasEnd() ? list.length - 1 : so.hasStart() ? 0 : Math.min(list.length - 1, Number(so.getRevision()));
        out = list.slice(Math.max(0, from - count + 1), from + 1).reverse();
      } else {
        const from = so.hasStart() ? 0 : so.hasEnd() ? list.length : Number(so.getRevision());
        out = list.slice(from, from + count);
      }
    } else {
      const ao = opts.getAll()!;
      if (backwards) {
        const upto = ao.hasEnd()
          ? this.log.length
          : ao.hasStart()
            ? 0
            : this.log.filter((r) => r.position < BigInt(ao.getPosition()!.getCommitPosition())).length;
        out = this.log.slice(Math.max(0, upto - count), upto).reverse();
      } else {
        const from = ao.hasStart() ? 0 : ao.hasEnd() ? this.log.length : this.log.findIndex((r) => r.position >= BigInt(ao.getPosition()!.getCommitPosition()));
        out = from < 0 ? [] : this.log.slice(from, from + count);
      }
    }
    void this.stream(call, out);
  }

  /** Sends as a server does: no further than the client reads (HTTP/2 flow control), so a reader that stops holds the call open. */
  private async stream(call: grpc.ServerWritableStream<ReadReqT, ReadRespT>, out: Rec[]): Promise<void> {
    for (const r of out) {
      if (!this.openReads.has(call)) return; // cancelled
      if (!call.write(new ReadResp().setEvent(this.recorded(r)))) await new Promise((resolve) => call.once('drain', resolve));
    }
    this.end(call);
  }

  private end(call: grpc.ServerWritableStream<ReadReqT, ReadRespT>): void {
    if (this.openReads.delete(call)) call.end();
  }

  private subscribe(call: grpc.ServerWritableStream<ReadReqT, ReadRespT>, opts: InstanceType<typeof streamsPb.ReadReq.Options>): void {
    const ao = opts.getAll();
    if (!ao) {
      call.destroy(new Error('the model only has $all subscriptions'));
      return;
    }
    const filter = opts.hasFilter() ? (opts.getFilter()!.getStreamIdentifier()?.getPrefixList() ?? null) : null;
    const after = ao.hasStart() ? -1n : ao.hasEnd() ? this.nextPosition : BigInt(ao.getPosition()!.getCommitPosition());
    call.write(new ReadResp().setConfirmation(new ReadResp.SubscriptionConfirmation().setSubscriptionId('model')));
    const l: Live = { after, prefixes: filter, call };
    for (const r of this.log) if (r.position > after && this.matches(l, r)) this.send(call, r);
    this.live.add(l);
    call.on('cancelled', () => this.live.delete(l));
  }

  private matches(l: Live, r: Rec): boolean {
    return l.prefixes === null || l.prefixes.some((p) => r.stream.startsWith(p));
  }

  private notify(rec: Rec): void {
    for (const l of this.live) if (this.matches(l, rec)) this.send(l.call, rec);
  }

  private append(call: grpc.ServerReadableStream<AppendReqT, AppendRespT>, cb: grpc.sendUnaryData<AppendRespT>): void {
    const msgs: AppendReqT[] = [];
    call.on('data', (m: AppendReqT) => msgs.push(m));
    call.on('error', () => undefined);
    call.on('end', () => {
      if (this.refuseAppends) return cb({ ...this.refuseAppends, metadata: new grpc.Metadata() });
      try {
        cb(null, this.commit(msgs));
      } catch (e) {
        cb(e as grpc.ServiceError);
      }
    });
  }

  private commit(msgs: AppendReqT[]): AppendRespT {
    const options = msgs[0]!.getOptions()!;
    const stream = Buffer.from(options.getStreamIdentifier()!.getStreamName_asU8()).toString('utf8');
    const proposed = msgs.slice(1).map((m) => m.getProposedMessage()!);
    let size = 0;
    for (const p of proposed) size += p.getData_asU8().length + p.getCustomMetadata_asU8().length;
    if (size > this.maxAppendSize) {
      const md = new grpc.Metadata();
      md.set('exception', 'maximum-append-size-exceeded');
      md.set('maximum-append-size', String(this.maxAppendSize));
      throw Object.assign(new Error('Maximum Append Size Exceeded'), {
        code: grpc.status.INVALID_ARGUMENT,
        details: 'Maximum Append Size Exceeded',
        metadata: md,
      });
    }
    const list = this.streams.get(stream) ?? [];
    const current = BigInt(list.length) - 1n; // -1: no stream
    const ids = proposed.map((p) => p.getId()!.getString().toLowerCase());
    const wrong = () => {
      const w = new AppendResp.WrongExpectedVersion();
      if (current >= 0n) w.setCurrentRevision(current.toString());
      else w.setCurrentNoStream(new Empty());
      if (options.hasRevision()) w.setExpectedRevision(options.getRevision());
      else if (options.hasNoStream()) w.setExpectedNoStream(new Empty());
      else if (options.hasStreamExists()) w.setExpectedStreamExists(new Empty());
      else w.setExpectedAny(new Empty());
      return new AppendResp().setWrongExpectedVersion(w);
    };
    const already = (last: bigint) => {
      const rec = list[Number(last)]!;
      const s = new AppendResp.Success().setCurrentRevision(last.toString());
      s.setPosition(new AppendResp.Position().setCommitPosition(rec.position.toString()).setPreparePosition(rec.position.toString()));
      return new AppendResp().setSuccess(s);
    };
    if (options.hasAny()) {
      // Best effort: only ids still in the recent-commits cache are recognised.
      const first = this.idCache.get(ids[0]!);
      if (first && first.stream === stream) {
        const at = Number(first.revision);
        const all = ids.every((id, i) => list[at + i]?.id === id);
        return all ? already(first.revision + BigInt(ids.length) - 1n) : wrong();
      }
    } else {
      const expected = options.hasNoStream() ? -1n : options.hasStreamExists() ? (current >= 0n ? current : -2n) : BigInt(options.getRevision());
      if (expected === -2n || expected > current) return wrong();
      if (expected < current) {
        // CheckCommit: compare with what follows the expected revision.
        const from = Number(expected + 1n);
        if (list[from]?.id !== ids[0]) return wrong();
        const all = ids.every((id, i) => list[from + i]?.id === id);
        return all ? already(expected + BigInt(ids.length)) : wrong(); // a partial match is CorruptedIdempotency: answered as wrong version
      }
      // expected === current: written, whatever its ids (no duplicate check at the head).
    }
    for (const p of proposed) {
      const md = p.getMetadataMap();
      const rec: Rec = {
        stream,
        revision: BigInt(list.length),
        id: p.getId()!.getString().toLowerCase(),
        type: md.get('type') ?? '',
        contentType: md.get('content-type') ?? 'application/octet-stream',
        data: p.getData_asU8(),
        metadata: p.getCustomMetadata_asU8(),
        position: (this.nextPosition += 137n),
        created: BigInt(Date.now()) * 10_000n,
      };
      list.push(rec);
      this.log.push(rec);
      this.idCache.set(rec.id, rec);
      if (this.idCache.size > ID_CACHE) this.idCache.delete(this.idCache.keys().next().value!);
      this.notify(rec);
    }
    this.streams.set(stream, list);
    return already(BigInt(list.length) - 1n);
  }
}
