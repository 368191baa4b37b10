/**
 * XML names from the document's `xml` objects when a response schema is an `allOf` (ReadMe's
 * Train Travel 3.1, test/fixtures/openapi/train-travel-3.1.json, through a real server): its
 * `GET /stations` XML media type is a generic wrapper (`Wrapper-Collection`, `xml: { name: data }`)
 * plus the operation's own `data: { xml: { name: stations, wrapped: true }, items: Station }`
 * (`Station`: `xml: { name: station }`). Before, the first part that declared `data` (the
 * wrapper's, with no `xml`) named it, so the answer was `<xml><data>…</data><data>…</data>`.
 */
import { afterEach, expect, it } from 'vitest';
import { closeServers, startServer } from '../../helpers/server.js';

const DOC = new URL('../../fixtures/openapi/train-travel-3.1.json', import.meta.url).pathname;
afterEach(() => closeServers());

it('an allOf response is named by the parts that carry xml objects: <data><stations><station>…', async () => {
  const server = await startServer({ mock: { endpointPrefix: '/', fsDir: null, logLevel: 'silent', openapi: DOC } });
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { Authorization: 'Bearer t', Accept: 'application/xml' } });
  const stations = await get('/stations');
  expect(stations.status).toBe(200);
  expect(stations.headers.get('content-type')).toMatch(/^application\/xml/);
  const xml = await stations.text();
  expect(xml).toMatch(/^<data><stations><station><id>[^<]+<\/id><name>[^<]+<\/name>/);
  expect(xml).toMatch(/<\/station><\/stations><links><self>[^<]*<\/self>/);
  expect(xml).not.toContain('<xml>');
  // The same rule for a kept collection's page and item.
  expect(await (await get('/bookings')).text()).toMatch(/^<data><bookings><booking><id>/);
});
