/**
 * The server's log: one JSON object per line, `level` and `msg` first, so a line is both grepped
 * (`"msg":"request"`) and parsed. Info goes to stdout, warnings and errors to stderr. Fields name
 * what happened (ids, counts, a masked address), never a secret or a whole address.
 */
export type LogLevel = 'info' | 'warn' | 'error';

export function log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  const line = JSON.stringify({ level, msg, ...fields });
  if (level === 'info') console.log(line);
  else if (level === 'warn') console.warn(line);
  else console.error(line);
}
