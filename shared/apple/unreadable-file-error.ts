import { ServiceError } from '../service-error';

/** A file that cannot be read as what it claims to be (a `.p12`, a provisioning profile); `reason` says which. */
export class UnreadableFileError<Reason extends string = string> extends ServiceError<'unreadable', Reason> {
  override readonly name: string;

  constructor(name: string, reason: Reason, message: string, options?: { cause?: unknown }) {
    super('unreadable', reason, message, options);
    this.name = name;
  }
}

/** The error class of one kind of file, so a caller catches the one it reads (`instanceof P12ReadError`). */
export function unreadableFileError<Reason extends string>(name: string, reason: Reason) {
  return class extends UnreadableFileError<Reason> {
    constructor(message: string, options?: { cause?: unknown }) {
      super(name, reason, message, options);
    }
  };
}
