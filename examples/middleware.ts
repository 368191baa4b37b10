/**
 * Example: middlewares for REST handlers.
 *
 *   createMockApi({
 *     endpointPrefix: '/api',
 *     handlers: todoHandlers,
 *     handlerMiddlewares: [cors, requireToken],
 *     errorMiddlewares: [problemJson],
 *   });
 *
 * handlerMiddlewares run (in order) for requests that matched a handler, after the body was
 * parsed. Call next() to go on; respond without next() to stop; next(err) or throw to fail.
 */
import { HttpError, type ErrorHandlerFunction, type MiddlewareFunction } from 'mockyard';

/** Adds CORS headers; they stay on error responses too. */
export const cors: MiddlewareFunction = (_req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  next();
};

/** Rejects writes without a bearer token; remembers the user for the handler in req.locals. */
export const requireToken: MiddlewareFunction = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  const auth = req.headers.get('authorization') ?? '';
  if (!auth.startsWith('Bearer ')) {
    // Respond and stop: the handler does not run.
    res.status(401).json({ message: 'Log in first' });
    return;
  }
  req.locals.user = auth.slice('Bearer '.length);
  next();
};

/** Turns every error into an RFC 9457 problem document; keeps the status. */
export const problemJson: ErrorHandlerFunction = (err, req, res) => {
  res
    .status(err.status)
    .type('application/problem+json')
    .send(JSON.stringify({ title: err.status >= 500 ? 'Server error' : err.message, status: err.status, instance: req.path }));
};

/** An error middleware that only logs and passes the error on. */
export const logErrors: ErrorHandlerFunction = (err, req, _res, next) => {
  console.warn(`[mock] ${req.method} ${req.path} → ${err.status} ${err.message}`);
  next(err);
};

/** Middlewares can also fail with next(err): this one simulates a flaky backend. */
export const chaos = (failureRate: number): MiddlewareFunction => (_req, _res, next) => {
  if (Math.random() < failureRate) next(new HttpError(503, 'Service Unavailable'));
  else next();
};
