/**
 * Example: REST handlers for a small in-memory "todos" resource.
 *
 *   import { todoHandlers } from './handler.js';
 *   createMockApi({ endpointPrefix: '/api', handlers: todoHandlers });
 *
 * Shows params, query, parsed JSON bodies, both response styles and returned values.
 */
import { HttpError, type RestHandler } from 'mockyard';

interface Todo {
  id: number;
  title: string;
  done: boolean;
}

const todos: Todo[] = [{ id: 1, title: 'Write the mock', done: false }];
let nextId = 2;

function findTodo(id: string): Todo {
  const todo = todos.find((t) => t.id === Number(id));
  // Thrown HttpErrors become the JSON error body (and go through errorMiddlewares first).
  if (!todo) throw new HttpError(404, `Todo ${id} not found`);
  return todo;
}

export const todoHandlers: RestHandler[] = [
  // GET /api/todos?done=true : return a value, it is sent as JSON with status 200.
  {
    pattern: '/todos',
    method: 'GET',
    handle: (req) => (req.query.done === undefined ? todos : todos.filter((t) => String(t.done) === req.query.done)),
  },

  // GET /api/todos/1 : {id:\d+} only matches digits; other ids fall through to file mode / 404.
  { pattern: '/todos/{id:\\d+}', method: 'GET', handle: (req) => findTodo(req.params.id) },

  // POST /api/todos {"title":"..."} : Express style response.
  {
    pattern: '/todos',
    method: 'POST',
    handle: (req, res) => {
      const body = req.body as Partial<Todo> | undefined;
      if (!body || typeof body.title !== 'string') throw new HttpError(400, 'title is required');
      const todo: Todo = { id: nextId++, title: body.title, done: false };
      todos.push(todo);
      res.status(201).set('Location', `${req.path}/${todo.id}`).json(todo);
    },
  },

  // DELETE /api/todos/1 : Node style response, with a simulated slow server.
  {
    pattern: '/todos/{id}',
    method: 'DELETE',
    delay: 300,
    handle: (req, res) => {
      const todo = findTodo(req.params.id);
      todos.splice(todos.indexOf(todo), 1);
      res.statusCode = 204;
      res.end();
    },
  },

  // /api/people/** is served from the files under fsDir/users (aliasing URLs to files).
  { pattern: '/people/**', method: '*', handle: 'FS', rewrite: (path) => path.replace(/^\/people/, '/users') },
];
