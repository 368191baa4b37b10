/**
 * Realistic values for a string or number field picked by its NAME (`email`, `firstName`,
 * `photoUrls`, `price`, `createdAt`…) or by its `format` (`email`, `uuid`, `date-time`…), drawn
 * from a seeded faker instance. `undefined` = no rule for that name/format (the generator then
 * falls back to the schema's type).
 */
import type { Faker } from '@faker-js/faker';

type Rule = (f: Faker) => unknown;

/** Dates come from a fixed window so a seed gives the same data on every machine and day. */
const FROM = '2020-01-01T00:00:00.000Z';
const TO = '2025-01-01T00:00:00.000Z';
const dateTime = (f: Faker) => f.date.between({ from: FROM, to: TO }).toISOString();
const date = (f: Faker) => dateTime(f).slice(0, 10);

/** The table's own rule for a key: a field named `constructor` or `toString` is no rule. */
function ruleOf(table: Record<string, Rule>, key: string): Rule | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** One rule for several names (synonyms). */
function same(rule: Rule, ...names: string[]): Record<string, Rule> {
  return Object.fromEntries(names.map((name) => [name, rule]));
}

const FORMATS: Record<string, Rule> = {
  ...same((f) => f.internet.email().toLowerCase(), 'email', 'idn-email'),
  ...same((f) => f.internet.url(), 'uri', 'url', 'iri'),
  'uri-reference': (f) => `/${f.lorem.slug(2)}`,
  ...same((f) => f.string.uuid(), 'uuid', 'guid'),
  date,
  'date-time': dateTime,
  time: (f) => dateTime(f).slice(11, 19),
  duration: (f) => `PT${f.number.int({ min: 1, max: 59 })}M`,
  ipv4: (f) => f.internet.ipv4(),
  ipv6: (f) => f.internet.ipv6(),
  ...same((f) => f.internet.domainName(), 'hostname', 'idn-hostname'),
  byte: (f) => btoa(f.lorem.words(2)),
  binary: (f) => f.string.alphanumeric(16),
  password: (f) => f.internet.password({ length: 12 }),
  'phone-number': (f) => f.phone.number({ style: 'international' }),
};

/** Field names, lower-cased with `_`/`-` removed (`first_name` → `firstname`); synonyms share a rule. */
const NAMES: Record<string, Rule> = {
  ...same(FORMATS.email!, 'email', 'emailaddress'),
  ...same((f) => f.person.firstName(), 'firstname', 'givenname', 'name'),
  ...same((f) => f.person.lastName(), 'lastname', 'surname', 'familyname'),
  ...same((f) => f.person.fullName(), 'fullname', 'displayname'),
  ...same((f) => f.internet.username(), 'username', 'login'),
  password: FORMATS.password!,
  city: (f) => f.location.city(),
  country: (f) => f.location.country(),
  countrycode: (f) => f.location.countryCode(),
  state: (f) => f.location.state(),
  ...same((f) => f.location.streetAddress(), 'street', 'address', 'streetaddress'),
  ...same((f) => f.location.zipCode(), 'zip', 'zipcode', 'postcode', 'postalcode'),
  ...same(FORMATS['phone-number']!, 'phone', 'phonenumber', 'mobile'),
  ...same((f) => f.image.avatar(), 'avatar', 'avatarurl'),
  ...same((f) => f.image.url(), 'image', 'imageurl', 'photo', 'photourl', 'photourls', 'picture', 'thumbnail'),
  ...same((f) => f.internet.url(), 'url', 'website', 'homepage', 'link', 'href'),
  ...same((f) => f.lorem.sentence({ min: 2, max: 5 }).replace(/\.$/, ''), 'title', 'subject'),
  ...same((f) => f.lorem.sentence(), 'description', 'summary', 'text', 'comment', 'message', 'bio'),
  ...same((f) => f.lorem.paragraph(), 'body', 'content'),
  ...same((f) => f.company.name(), 'company', 'companyname'),
  ...same((f) => f.color.human(), 'color', 'colour'),
  currency: (f) => f.finance.currencyCode(),
  slug: (f) => f.lorem.slug(2),
  tag: (f) => f.lorem.word(),
  category: (f) => f.commerce.department(),
  ...same((f) => f.commerce.productName(), 'product', 'productname'),
  ...same((f) => f.internet.ipv4(), 'ip', 'ipaddress'),
  ...same((f) => f.internet.domainName(), 'domain', 'hostname'),
  locale: (f) => f.helpers.arrayElement(['en-US', 'en-GB', 'fr-FR', 'de-DE', 'es-ES']),
  language: (f) => f.helpers.arrayElement(['en', 'fr', 'de', 'es', 'it']),
  timezone: (f) => f.location.timeZone(),
  ...same(FORMATS.uuid!, 'uuid', 'guid'),
  token: (f) => f.string.alphanumeric(32),
  sha: (f) => f.git.commitSha(),
};

const NUMBER_NAMES: Record<string, Rule> = {
  ...same((f) => Number(f.commerce.price({ min: 1, max: 500 })), 'price', 'amount', 'cost'),
  total: (f) => Number(f.commerce.price({ min: 1, max: 2000 })),
  ...same((f) => f.number.int({ min: 1, max: 20 }), 'quantity', 'qty'),
  age: (f) => f.number.int({ min: 18, max: 90 }),
  ...same((f) => f.location.latitude(), 'latitude', 'lat'),
  ...same((f) => f.location.longitude(), 'longitude', 'lng', 'lon'),
  rating: (f) => f.number.int({ min: 1, max: 5 }),
  year: (f) => f.number.int({ min: 1990, max: 2024 }),
};

export function normalName(name: string): string {
  return name.replace(/[-_\s]/g, '').toLowerCase();
}

/** A string for a field `format`. */
export function stringForFormat(f: Faker, format: string): string | undefined {
  const rule = ruleOf(FORMATS, format);
  return rule ? String(rule(f)) : undefined;
}

/** A string for a field named `name` (`createdAt`, `updated_at`, `*Url`, `*Email` too). */
export function stringForName(f: Faker, name: string): string | undefined {
  const key = normalName(name);
  const rule = ruleOf(NAMES, key);
  if (rule) return String(rule(f));
  if (/(at|date|time|on)$/.test(key) && /^(created|updated|modified|deleted|published|started|ended|expires|expired|last|due|birth|start|end|date)/.test(key)) {
    return key.endsWith('date') || key === 'birthday' ? date(f) : dateTime(f);
  }
  if (key.endsWith('email')) return FORMATS.email!(f) as string;
  if (key.endsWith('url') || key.endsWith('uri')) return /image|avatar|photo|picture|icon|logo/.test(key) ? f.image.url() : f.internet.url();
  if (key.endsWith('name')) return key.includes('first') ? f.person.firstName() : key.includes('last') ? f.person.lastName() : f.person.fullName();
  if (key.endsWith('phone')) return f.phone.number({ style: 'international' });
  if (key.endsWith('city')) return f.location.city();
  if (key.endsWith('country')) return f.location.country();
  return undefined;
}

/** A number for a field named `name` (`price`, `amount`, `latitude`…). */
export function numberForName(f: Faker, name: string): number | undefined {
  const rule = ruleOf(NUMBER_NAMES, normalName(name));
  return rule ? Number(rule(f)) : undefined;
}

/**
 * The `x-faker` extension: a faker method by its path (`internet.email`, `person.firstName`),
 * called without arguments; `undefined` when faker has no such method.
 */
export function fakerMethod(f: Faker, path: string): unknown {
  let target: unknown = f;
  let owner: unknown;
  for (const key of path.split('.')) {
    if (target === null || (typeof target !== 'object' && typeof target !== 'function')) return undefined;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return undefined;
    owner = target;
    target = (target as Record<string, unknown>)[key];
  }
  if (typeof target !== 'function') return undefined;
  try {
    const value = (target as (this: unknown) => unknown).call(owner);
    return value instanceof Date ? value.toISOString() : value;
  } catch {
    return undefined;
  }
}
