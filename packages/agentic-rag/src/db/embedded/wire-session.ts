import type { Socket } from 'node:net';

/** What a session needs of PGlite: one backend that answers raw protocol messages. */
export interface ProtocolBackend {
  execProtocolRaw(message: Uint8Array): Promise<Uint8Array>;
  runExclusive<T>(work: () => Promise<T>): Promise<T>;
  isInTransaction(): boolean;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'

/**
 * PGlite is one Postgres backend; many clients share it here the way a transaction-mode pooler
 * shares a server connection. A client takes the backend with its first message and keeps it
 * until the backend says it is idle again (ReadyForQuery 'I'): a whole extended-protocol exchange
 * (Parse … Sync) or a whole transaction runs without another client's messages in between, so no
 * client ever binds another's unnamed statement or commits another's work. Clients are served in
 * the order they asked. Session state that outlives a transaction (named prepared statements, a
 * plain SET) would be shared; the application uses neither.
 */
export class BackendGate {
  private owner: WireSession | null = null;
  private readonly waiting: Array<{ session: WireSession; grant: () => void }> = [];

  constructor(readonly backend: ProtocolBackend) {}

  acquire(session: WireSession): Promise<void> {
    if (this.owner === session) return Promise.resolve();
    if (this.owner === null) {
      this.owner = session;
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ session, grant }));
  }

  release(session: WireSession): void {
    if (this.owner !== session) {
      const index = this.waiting.findIndex((entry) => entry.session === session);
      if (index >= 0) this.waiting.splice(index, 1);
      return;
    }
    const next = this.waiting.shift();
    this.owner = next?.session ?? null;
    next?.grant();
  }

  /** Sessions queued for the backend (for the server's health line). */
  get queued(): number {
    return this.waiting.length;
  }
}

/** One client connection: reassembles protocol messages and runs them through the gate. */
export class WireSession {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly messages: Buffer[] = [];
  private started = false;
  private pumping = false;
  private closed = false;
  /** Settles once the session is over and any transaction it left open is rolled back. */
  readonly ended: Promise<void>;
  private finish!: () => void;

  constructor(
    private readonly socket: Socket,
    private readonly gate: BackendGate,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.ended = new Promise((resolve) => (this.finish = resolve));
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => void this.end());
    socket.on('error', () => void this.end());
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const length = this.nextLength();
      if (length === null || this.buffer.length < length) break;
      this.messages.push(this.buffer.subarray(0, length));
      this.buffer = this.buffer.subarray(length);
    }
    void this.pump();
  }

  /** The byte length of the next whole message, or null until its header has arrived. */
  private nextLength(): number | null {
    if (!this.started) return this.buffer.length >= 4 ? this.buffer.readInt32BE(0) : null;
    return this.buffer.length >= 5 ? 1 + this.buffer.readInt32BE(1) : null;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.messages.length > 0 && !this.closed) {
        const message = this.messages.shift()!;
        if (!this.started && (await this.preamble(message))) continue;
        if (this.started && message[0] === TERMINATE) {
          await this.end();
          return;
        }
        await this.gate.acquire(this);
        if (this.closed) break;
        const reply = await this.gate.backend.runExclusive(() => this.gate.backend.execProtocolRaw(message));
        if (!this.started) this.started = true;
        if (!this.socket.destroyed) this.socket.write(reply);
        if (isIdle(reply)) this.gate.release(this);
      }
    } catch (error) {
      this.onError(error);
      await this.end();
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Before the startup message: an SSL or GSS request is answered "no" (a local socket needs
   * neither), a cancel request is dropped (PGlite cannot interrupt a statement).
   */
  private async preamble(message: Buffer): Promise<boolean> {
    const code = message.length >= 8 ? message.readInt32BE(4) : 0;
    if (code === SSL_REQUEST || code === GSS_REQUEST) {
      this.socket.write('N');
      return true;
    }
    if (code === CANCEL_REQUEST) {
      this.socket.end();
      await this.end();
      return true;
    }
    if (code !== PROTOCOL_3) {
      this.socket.destroy();
      await this.end();
      return true;
    }
    return false;
  }

  /** The client left: a transaction it left open is rolled back before anyone else goes on. */
  private async end(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.messages.length = 0;
    try {
      await this.gate.acquire(this);
      const { backend } = this.gate;
      if (backend.isInTransaction())
        await backend.runExclusive(() => backend.execProtocolRaw(simpleQuery('ROLLBACK')));
    } catch (error) {
      this.onError(error);
    } finally {
      this.gate.release(this);
      if (!this.socket.destroyed) this.socket.destroy();
      this.finish();
    }
  }
}

/** Whether a reply ends with ReadyForQuery 'I': the backend is outside any transaction. */
function isIdle(reply: Uint8Array): boolean {
  let offset = 0;
  let idle = false;
  const view = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  while (offset + 5 <= view.length) {
    const type = view[offset]!;
    const length = view.readInt32BE(offset + 1);
    if (type === READY_FOR_QUERY && offset + 5 < view.length) idle = view[offset + 5] === IDLE;
    offset += 1 + length;
  }
  return idle;
}

/** A simple-protocol Query message. */
export function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(`${text}\u0000`, 'utf8');
  const message = Buffer.alloc(5 + body.length);
  message[0] = 0x51; // 'Q'
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}
