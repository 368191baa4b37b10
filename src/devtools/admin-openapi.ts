/**
 * The admin API's OpenAPI route (admin.ts hands `/openapi` here): the document the mock API
 * serves (`mock.openapi`), as the page's OpenAPI tab lists it — each operation with its documented
 * responses and their examples, and the handler pattern a session override for it takes.
 *
 *   GET openapi   { title, basePath, operations: [{ method, template, pattern, label, operationId,
 *                   responses: [{ code, description, contents: [{ type, example?, examples }] }] }] }
 *
 * The document is the one the OpenAPI layers share (loaded once, engine/openapi-backend/document-loader.ts);
 * it is read after the engine is ready, so a document given by path is already loaded.
 */
import { HttpError } from '../core/errors.js';
import type { MockApi } from '../engine/create-mock-api.js';
import { documentModel, sharedOpenApiDocument } from '../engine/openapi-document/document-loader.js';

/** `/pets/{petId}` → `/pets/:petId` (the handler pattern syntax session overrides use). */
export function patternOf(basePath: string, template: string): string {
  return `${basePath}${template}`.replace(/\{([^}]+)\}/g, (_m, name: string) => `:${name.replace(/[^A-Za-z0-9_]/g, '_')}`);
}

export async function describeOpenApi(api: MockApi): Promise<unknown> {
  const openapi = api.options.openapi;
  if (!openapi) throw new HttpError(404, 'No OpenAPI document is configured (mock.openapi)');
  await api.ready();
  let doc: Record<string, unknown>;
  try {
    doc = await sharedOpenApiDocument(openapi, openapi.source, api.options.root, undefined);
  } catch (err) {
    throw new HttpError(409, `The OpenAPI document could not be loaded: ${(err as Error)?.message ?? String(err)}`);
  }
  const { model } = documentModel(doc);
  return {
    title: model.title,
    basePath: model.basePath,
    operations: model.operations.map((o) => ({
      method: o.method.toUpperCase(),
      template: o.template,
      pattern: patternOf(model.basePath, o.template),
      label: o.label,
      operationId: typeof o.op.operationId === 'string' ? o.op.operationId : null,
      responses: o.responses.map((r) => ({
        code: r.code,
        description: r.description,
        contents: r.contents.map((c) => ({ type: c.type, ...(c.example ? { example: c.example.value } : {}), examples: c.examples })),
      })),
    })),
  };
}
