/**
 * A value as XML, for an answer whose negotiated media type is XML and whose value is not an XML
 * text already (a kept item, a generated value). Names follow the schema's `xml` object (`name`,
 * `wrapped`, `attribute`); the root is the schema's `xml.name`, else `xml` (as Prism names it);
 * an array property repeats its element (`<photoUrls>a</photoUrls><photoUrls>b</photoUrls>`)
 * unless `wrapped`.
 */
import { isObj } from '../../core/json-object.js';
import type { Deref } from '../openapi-document/refs.js';

type Obj = Record<string, unknown>;

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const safeName = (n: string) => (/^[A-Za-z_][\w.-]*$/.test(n) ? n : n.replace(/[^\w.-]/g, '_').replace(/^([^A-Za-z_])/, '_$1'));

/** The schema's `xml` object; of an `allOf`, the first part's that has one. */
function xmlOf(schema: unknown, deref: Deref): Obj {
  const s = deref(schema);
  if (!isObj(s)) return {};
  if (isObj(s.xml)) return s.xml;
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
    const xml = xmlOf(part, deref);
    if (Object.keys(xml).length > 0) return xml;
  }
  return {};
}

/** Every schema `key` has in `schema` (its own `properties`, then each `allOf` part's). */
function propSchemas(schema: unknown, key: string, deref: Deref, out: unknown[] = []): unknown[] {
  const s = deref(schema);
  if (!isObj(s)) return out;
  if (isObj(s.properties) && key in s.properties) out.push(s.properties[key]);
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) propSchemas(part, key, deref, out);
  return out;
}

/** The schema that names `key` in XML: of those an `allOf` gives it, the one with an `xml` object (a generic wrapper's `data` and the operation's own `data: { xml: { name: stations } }`), else the first. */
function propSchema(schema: unknown, key: string, deref: Deref): unknown {
  const all = propSchemas(schema, key, deref);
  return all.find((p) => Object.keys(xmlOf(p, deref)).length > 0) ?? all[0];
}

function element(name: string, value: unknown, schema: unknown, deref: Deref): string {
  const tag = safeName(name);
  if (value === null || value === undefined) return `<${tag}/>`;
  if (Array.isArray(value)) {
    const s = deref(schema);
    const items = isObj(s) ? s.items : undefined;
    const xml = xmlOf(schema, deref);
    const itemName = typeof xmlOf(items, deref).name === 'string' ? (xmlOf(items, deref).name as string) : name;
    const inner = value.map((v) => element(itemName, v, items, deref)).join('');
    return xml.wrapped === true ? `<${tag}>${inner}</${tag}>` : inner;
  }
  if (typeof value === 'object') {
    let attrs = '';
    let children = '';
    for (const [k, v] of Object.entries(value as Obj)) {
      const ps = propSchema(schema, k, deref);
      const px = xmlOf(ps, deref);
      const childName = typeof px.name === 'string' ? px.name : k;
      if (px.attribute === true && (v === null || typeof v !== 'object')) attrs += ` ${safeName(childName)}="${escape(String(v))}"`;
      else children += element(childName, v, ps, deref);
    }
    return `<${tag}${attrs}>${children}</${tag}>`;
  }
  return `<${tag}>${escape(String(value))}</${tag}>`;
}

export function toXml(value: unknown, schema: unknown, deref: Deref): string {
  const name = xmlOf(schema, deref).name;
  const root = typeof name === 'string' ? name : 'xml';
  if (Array.isArray(value)) {
    const s = deref(schema);
    const items = isObj(s) ? s.items : undefined;
    const itemName = xmlOf(items, deref).name;
    return `<${safeName(root)}>${value.map((v) => element(typeof itemName === 'string' ? itemName : 'item', v, items, deref)).join('')}</${safeName(root)}>`;
  }
  return element(root, value, schema, deref);
}
