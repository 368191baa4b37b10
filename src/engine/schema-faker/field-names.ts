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

const FORMATS: Record<string, Rule> = {
  email: (f) => f.internet.email().toLowerCase(),
  'idn-email': (f) => f.internet.email().toLowerCase(),
  uri: (f) => f.internet.url(),
  url: (f) => f.internet.url(),
  iri: (f) => f.internet.url(),
  'uri-reference': (f) => `/${f.lorem.slug(2)}`,
  uuid: (f) => f.string.uuid(),
  guid: (f) => f.string.uuid(),
  date,
  'date-time': dateTime,
  time: (f) => dateTime(f).slice(11, 19),
  duration: (f) => `PT${f.number.int({ min: 1, max: 59 })}M`,
  ipv4: (f) => f.internet.ipv4(),
  ipv6: (f) => f.internet.ipv6(),
  hostname: (f) => f.internet.domainName(),
  'idn-hostname': (f) => f.internet.domainName(),
  byte: (f) => btoa(f.lorem.words(2)),
  binary: (f) => f.string.alphanumeric(16),
  password: (f) => f.internet.password({ length: 12 }),
  'phone-number': (f) => f.phone.number({ style: 'international' }),
};

/** Field names, lower-cased with `_`/`-` removed (`first_name` → `firstname`). */
const NAMES: Record<string, Rule> = {
  email: FORMATS.email!,
  emailaddress: FORMATS.email!,
  firstname: (f) => f.person.firstName(),
  givenname: (f) => f.person.firstName(),
  lastname: (f) => f.person.lastName(),
  surname: (f) => f.person.lastName(),
  familyname: (f) => f.person.lastName(),
  fullname: (f) => f.person.fullName(),
  displayname: (f) => f.person.fullName(),
  name: (f) => f.person.firstName(),
  username: (f) => f.internet.username(),
  login: (f) => f.internet.username(),
  password: FORMATS.password!,
  city: (f) => f.location.city(),
  country: (f) => f.location.country(),
  countrycode: (f) => f.location.countryCode(),
  state: (f) => f.location.state(),
  street: (f) => f.location.streetAddress(),
  address: (f) => f.location.streetAddress(),
  streetaddress: (f) => f.location.streetAddress(),
  zip: (f) => f.location.zipCode(),
  zipcode: (f) => f.location.zipCode(),
  postcode: (f) => f.location.zipCode(),
  postalcode: (f) => f.location.zipCode(),
  phone: (f) => f.phone.number({ style: 'international' }),
  phonenumber: (f) => f.phone.number({ style: 'international' }),
  mobile: (f) => f.phone.number({ style: 'international' }),
  avatar: (f) => f.image.avatar(),
  avatarurl: (f) => f.image.avatar(),
  image: (f) => f.image.url(),
  imageurl: (f) => f.image.url(),
  photo: (f) => f.image.url(),
  photourl: (f) => f.image.url(),
  photourls: (f) => f.image.url(),
  picture: (f) => f.image.url(),
  thumbnail: (f) => f.image.url(),
  url: (f) => f.internet.url(),
  website: (f) => f.internet.url(),
  homepage: (f) => f.internet.url(),
  link: (f) => f.internet.url(),
  href: (f) => f.internet.url(),
  title: (f) => f.lorem.sentence({ min: 2, max: 5 }).replace(/\.$/, ''),
  subject: (f) => f.lorem.sentence({ min: 2, max: 5 }).replace(/\.$/, ''),
  description: (f) => f.lorem.sentence(),
  summary: (f) => f.lorem.sentence(),
  body: (f) => f.lorem.paragraph(),
  content: (f) => f.lorem.paragraph(),
  text: (f) => f.lorem.sentence(),
  comment: (f) => f.lorem.sentence(),
  message: (f) => f.lorem.sentence(),
  bio: (f) => f.lorem.sentence(),
  company: (f) => f.company.name(),
  companyname: (f) => f.company.name(),
  color: (f) => f.color.human(),
  colour: (f) => f.color.human(),
  currency: (f) => f.finance.currencyCode(),
  slug: (f) => f.lorem.slug(2),
  tag: (f) => f.lorem.word(),
  category: (f) => f.commerce.department(),
  product: (f) => f.commerce.productName(),
  productname: (f) => f.commerce.productName(),
  ip: (f) => f.internet.ipv4(),
  ipaddress: (f) => f.internet.ipv4(),
  domain: (f) => f.internet.domainName(),
  hostname: (f) => f.internet.domainName(),
  locale: (f) => f.helpers.arrayElement(['en-US', 'en-GB', 'fr-FR', 'de-DE', 'es-ES']),
  language: (f) => f.helpers.arrayElement(['en', 'fr', 'de', 'es', 'it']),
  timezone: (f) => f.location.timeZone(),
  uuid: FORMATS.uuid!,
  guid: FORMATS.uuid!,
  token: (f) => f.string.alphanumeric(32),
  sha: (f) => f.git.commitSha(),
};

const NUMBER_NAMES: Record<string, Rule> = {
  price: (f) => Number(f.commerce.price({ min: 1, max: 500 })),
  amount: (f) => Number(f.commerce.price({ min: 1, max: 500 })),
  cost: (f) => Number(f.commerce.price({ min: 1, max: 500 })),
  total: (f) => Number(f.commerce.price({ min: 1, max: 2000 })),
  quantity: (f) => f.number.int({ min: 1, max: 20 }),
  qty: (f) => f.number.int({ min: 1, max: 20 }),
  age: (f) => f.number.int({ min: 18, max: 90 }),
  latitude: (f) => f.location.latitude(),
  lat: (f) => f.location.latitude(),
  longitude: (f) => f.location.longitude(),
  lng: (f) => f.location.longitude(),
  lon: (f) => f.location.longitude(),
  rating: (f) => f.number.int({ min: 1, max: 5 }),
  year: (f) => f.number.int({ min: 1990, max: 2024 }),
};

export function normalName(name: string): string {
  return name.replace(/[-_\s]/g, '').toLowerCase();
}

/** A string for a field `format`. */
export function stringForFormat(f: Faker, format: string): string | undefined {
  const rule = FORMATS[format];
  return rule ? String(rule(f)) : undefined;
}

/** A string for a field named `name` (`createdAt`, `updated_at`, `*Url`, `*Email` too). */
export function stringForName(f: Faker, name: string): string | undefined {
  const key = normalName(name);
  const rule = NAMES[key];
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
  const rule = NUMBER_NAMES[normalName(name)];
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
