/**
 * The server's log, written by pino: one JSON object per line, `level` (its name) and `msg` first,
 * then the line's fields, so a line is both grepped (`"msg":"request"`) and parsed. Info goes to
 * stdout, warnings and errors to stderr. Fields name what happened (ids, counts, a masked address),
 * never a secret or a whole address.
 *
 * A line written while a request is handled ends with that request's id, `req_id` (the
 * `X-Request-Id` its answer carries): the middleware runs the request inside `withRequestId`, and
 * every line written from there, however deep or late in that request's work, finds the id.
 *
 * No time or host on the line, as before: the process manager that collects the output stamps it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino } from 'pino';

export type LogLevel = 'info' | 'warn' | 'error';

const requestScope = new AsyncLocalStorage<string>();

/** Runs `work` as the handling of the request `id`: what it logs carries `req_id`. */
export function withRequestId<R>(id: string, work: () => R): R {
  return requestScope.run(id, work);
}

const logger = pino(
  {
    base: null,
    timestamp: false,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const id = requestScope.getStore();
      return id === undefined ? {} : { req_id: id };
    },
    // The request id after the line's own fields, so `"msg":"…","field":…` reads as it always has.
    mixinMergeStrategy: (line, mixed) => Object.assign(line, mixed),
  },
  // The process's streams (synchronous for files and pipes on Linux, as console's were), each level
  // to one of them only; looked up at each line, so a test that captures them sees every line.
  pino.multistream(
    [
      { level: 'info', stream: { write: (line: string) => process.stdout.write(line) } },
      { level: 'warn', stream: { write: (line: string) => process.stderr.write(line) } },
    ],
    { dedupe: true },
  ),
);

export function log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  logger[level]({ msg, ...fields });
}
