/**
 * The one value this process keeps on globalThis, and why: Vite's dev server (`npm run dev`)
 * evaluates a changed module and its importers again, and a module-level value would then be made
 * a second time — a second app with its own jobs, DATA_DIR opened twice, a second live hub whose
 * streams the first never hears. What must outlive such a reload is kept under this one key
 * instead, by name. The built server (`npm start`) loads each module once, so there it is the same
 * as a module-level value.
 *
 * Plain TypeScript without imports: anything may use it without a cycle.
 */
const KEY = Symbol.for('sugu.process');
const slot = ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map<string, unknown>()) as Map<string, unknown>;

/**
 * The value kept under `name`, made by `init` the first time in this process.
 * @example const hub = reloadSafe('liveHub', () => new LiveHub());
 */
export function reloadSafe<T>(name: string, init: () => T): T {
  if (!slot.has(name)) slot.set(name, init());
  return slot.get(name) as T;
}
