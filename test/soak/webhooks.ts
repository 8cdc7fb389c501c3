/**
 * The soak's webhook receiver: a loopback HTTP server each soak user's webhook points at (`/hook/<user id>`),
 * which checks every delivery as the README tells a reseller to — the `X-Signature` (`t=…,sha256=…`, an
 * HMAC-SHA256 of "<t>.<raw body>" with the secret the user was shown), the event's owner, duplicates dropped
 * by id — and keeps what it received for the invariants. Now and then it answers a first delivery 503, so the
 * service's retry (at least once) is part of the run.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/** An event as delivered (the README's shape). */
export interface DeliveredEvent {
  id: string;
  type: string;
  created: number;
  tenant_id: string;
  user_id: string;
  data: Record<string, unknown>;
}

export interface Delivery {
  event: DeliveredEvent;
  /** Arrival order across the run (1, 2, …) of its first accepted delivery. */
  arrival: number;
  /** Deliveries accepted after the first (at least once: the same id again). */
  repeats: number;
}

/** How far a delivery's `t` may be from the receiver's clock (the README's snippet uses 300 s). */
const TOLERANCE_SECONDS = 300;
/** Share of first deliveries answered 503 on purpose, so retries happen. */
const REFUSE_FIRST = 0.1;

export class WebhookReceiver {
  url = '';
  /** Per user: every signing secret the service showed it (a re-set webhook gets a new one). */
  readonly secrets = new Map<string, Set<string>>();
  /**
   * Users one of whose webhook answers was lost, so a secret may exist the soak never saw: until when (epoch
   * ms; Infinity until a rotation's answer came) a delivery it cannot verify is counted, not a violation.
   */
  readonly secretsUncertain = new Map<string, number>();
  readonly delivered = new Map<string, Delivery>();
  /** Deliveries that failed a check: each a violation. */
  readonly rejected: string[] = [];
  /** Deliveries signed with a secret the soak never saw, for a user whose answer with it was lost. */
  unverifiable = 0;
  pings = 0;
  refusedOnPurpose = new Set<string>();
  /**
   * No refusal on purpose after this time (epoch ms): the run sets it to its end less the first retry's delay,
   * so every refused delivery's retry falls due while traffic still runs and the drain waits for none.
   */
  refuseUntil = Infinity;
  private arrivals = 0;
  private server: Server | undefined;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = this.receive(req.url ?? '', req.headers['x-signature'], req.headers['x-event-id'], Buffer.concat(chunks));
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  hookUrl(userId: string): string {
    return `${this.url}/hook/${userId}`;
  }

  noteSecret(userId: string, secret: string): void {
    const known = this.secrets.get(userId) ?? new Set<string>();
    known.add(secret);
    this.secrets.set(userId, known);
  }

  /** The README's verification: `t` recent, the HMAC of "<t>.<raw body>" equal in constant time. */
  static verify(rawBody: Buffer, header: string | undefined, secret: string, nowSeconds = Date.now() / 1000): boolean {
    const m = /^t=(\d+),sha256=([0-9a-f]{64})$/.exec(String(header ?? ''));
    if (!m || Math.abs(nowSeconds - Number(m[1])) > TOLERANCE_SECONDS) return false;
    const expected = createHmac('sha256', secret).update(`${m[1]}.`).update(rawBody).digest();
    const given = Buffer.from(m[2]!, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private receive(path: string, signature: string | string[] | undefined, eventId: string | string[] | undefined, body: Buffer): number {
    const userId = /^\/hook\/([^/?]+)$/.exec(path)?.[1];
    if (!userId) {
      this.rejected.push(`a delivery to ${path}, which no webhook names`);
      return 404;
    }
    const header = typeof signature === 'string' ? signature : undefined;
    const verified = [...(this.secrets.get(userId) ?? [])].some((secret) => WebhookReceiver.verify(body, header, secret));
    if (!verified) {
      if ((this.secretsUncertain.get(userId) ?? 0) > Date.now()) this.unverifiable++;
      else this.rejected.push(`delivery to ${userId} with a signature none of its secrets makes (${String(header)})`);
      return 401;
    }
    let event: DeliveredEvent;
    try {
      event = JSON.parse(body.toString('utf8')) as DeliveredEvent;
    } catch {
      this.rejected.push(`delivery to ${userId} that is not JSON`);
      return 400;
    }
    if (event.type === 'ping') {
      this.pings++;
      return 200;
    }
    if (event.user_id !== userId) this.rejected.push(`event ${event.id} of ${event.user_id} delivered to ${userId}'s webhook`);
    if (eventId !== event.id) this.rejected.push(`event ${event.id} delivered with X-Event-Id ${String(eventId)}`);
    const seen = this.delivered.get(event.id);
    if (seen) {
      seen.repeats++;
      return 200;
    }
    if (!this.refusedOnPurpose.has(event.id) && Date.now() < this.refuseUntil && Math.random() < REFUSE_FIRST) {
      this.refusedOnPurpose.add(event.id);
      return 503;
    }
    this.delivered.set(event.id, { event, arrival: ++this.arrivals, repeats: 0 });
    return 200;
  }

  duplicates(): number {
    let n = 0;
    for (const d of this.delivered.values()) n += d.repeats;
    return n;
  }
}
