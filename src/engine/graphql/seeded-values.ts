/**
 * Realistic values for a schema-first GraphQL API (`graphql: { schema }`), by type and field
 * name, seeded: the same type, id and field always give the same value (a list view and a detail
 * view agree, a reload shows the same data), with no dependency: names, e-mails, titles, dates,
 * prices, counts, booleans, enum values, lists of 2 to 4.
 */

/** A 32-bit FNV-1a hash of a text: the seed of one value. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded generator. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Radia', 'Tim', 'Frances', 'Edsger', 'Katherine', 'John', 'Hedy', 'Donald'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Perlman', 'Berners-Lee', 'Allen', 'Dijkstra', 'Johnson', 'McCarthy', 'Lamarr', 'Knuth'];
const WORDS = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'do', 'eiusmod', 'tempor', 'incididunt', 'labore', 'dolore', 'magna', 'aliqua', 'veniam', 'quis', 'nostrud'];
const CITIES = ['Paris', 'Lisbon', 'Berlin', 'Oslo', 'Kyoto', 'Montreal', 'Nairobi', 'Lima', 'Dublin', 'Seoul'];
const COUNTRIES = ['France', 'Portugal', 'Germany', 'Norway', 'Japan', 'Canada', 'Kenya', 'Peru', 'Ireland', 'South Korea'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Enterprises', 'Soylent'];
const COLORS = ['red', 'green', 'blue', 'orange', 'purple', 'teal'];

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const words = (r: () => number, n: number) => Array.from({ length: n }, () => pick(r, WORDS)).join(' ');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A text for a String field, by its name. */
export function stringFor(field: string, r: () => number): string {
  const f = field.toLowerCase();
  const first = pick(r, FIRST);
  const last = pick(r, LAST);
  if (f === 'email' || f.endsWith('email')) return `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + '@example.com';
  if (f === 'firstname' || f === 'givenname') return first;
  if (f === 'lastname' || f === 'surname' || f === 'familyname') return last;
  if (f === 'name' || f === 'fullname' || f === 'author' || f === 'displayname') return `${first} ${last}`;
  if (f === 'username' || f === 'login' || f === 'handle') return `${first}${Math.floor(r() * 100)}`.toLowerCase();
  if (f.includes('phone')) return `+1 555 ${String(Math.floor(r() * 9000) + 1000)}`;
  if (f.includes('url') || f.includes('link') || f.includes('website')) return `https://example.com/${words(r, 2).replace(' ', '-')}`;
  if (f.includes('avatar') || f.includes('image') || f.includes('photo') || f.includes('picture')) return `https://picsum.photos/seed/${Math.floor(r() * 1e6)}/200`;
  if (f === 'city') return pick(r, CITIES);
  if (f === 'country') return pick(r, COUNTRIES);
  if (f.includes('company') || f === 'organization') return pick(r, COMPANIES);
  if (f.includes('color') || f.includes('colour')) return pick(r, COLORS);
  if (f.includes('date') || f.endsWith('at') || f.includes('time')) return new Date(Date.UTC(2024, 0, 1) + Math.floor(r() * 730) * 86_400_000).toISOString();
  if (f === 'title' || f === 'subject' || f === 'headline' || f === 'label') return capital(words(r, 3 + Math.floor(r() * 3)));
  if (f.includes('description') || f === 'body' || f === 'content' || f === 'text' || f === 'summary' || f === 'bio') return `${capital(words(r, 10 + Math.floor(r() * 10)))}.`;
  if (f === 'status') return pick(r, ['active', 'pending', 'archived']);
  if (f === 'currency') return pick(r, ['EUR', 'USD', 'JPY', 'GBP']);
  return capital(words(r, 2));
}

/** A number for an Int or Float field, by its name. */
export function numberFor(field: string, float: boolean, r: () => number): number {
  const f = field.toLowerCase();
  if (f === 'age') return 18 + Math.floor(r() * 70);
  if (f.includes('price') || f.includes('amount') || f.includes('cost') || f.includes('total')) return float ? Math.round(r() * 50000) / 100 : Math.floor(r() * 500);
  if (f.includes('rating') || f.includes('score')) return float ? Math.round(r() * 50) / 10 : 1 + Math.floor(r() * 5);
  if (f.includes('year')) return 1990 + Math.floor(r() * 35);
  if (f.includes('lat')) return Math.round((r() * 180 - 90) * 1e4) / 1e4;
  if (f.includes('lng') || f.includes('lon')) return Math.round((r() * 360 - 180) * 1e4) / 1e4;
  return float ? Math.round(r() * 100000) / 100 : Math.floor(r() * 1000);
}
