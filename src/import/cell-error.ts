// Why a cell cannot be sent: its row fails with this code and message (typing.ts,
// numbers.ts, dates.ts).

/** A cell that cannot be typed: its row fails with this code and message. */
export class CellError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
