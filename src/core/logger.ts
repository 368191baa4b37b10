/**
 * Levelled logging with a pluggable sink (Vite's logger, pino, console).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Anything with these four methods: console, pino, Vite's logger (`warn`/`error`/`info`). */
export interface LoggerSink {
  debug?(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  error(message: string, ...rest: unknown[]): void;
}

export interface Logger {
  readonly level: LogLevel;
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
  debug(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  error(message: string, ...rest: unknown[]): void;
}

export function createLogger(level: LogLevel = 'info', sink: LoggerSink = console, prefix = '[mockyard]'): Logger {
  const min = RANK[level];
  const at = (l: Exclude<LogLevel, 'silent'>) => RANK[l] >= min;
  const write = (l: Exclude<LogLevel, 'silent'>, message: string, rest: unknown[]) => {
    if (!at(l)) return;
    const fn = (l === 'debug' ? sink.debug ?? sink.info : sink[l]).bind(sink);
    fn(prefix ? `${prefix} ${message}` : message, ...rest);
  };
  return {
    level,
    enabled: at,
    debug: (m, ...r) => write('debug', m, r),
    info: (m, ...r) => write('info', m, r),
    warn: (m, ...r) => write('warn', m, r),
    error: (m, ...r) => write('error', m, r),
  };
}
