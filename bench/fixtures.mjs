// Deterministic "users" fixtures, the same shapes (and, with the same seed, the same bytes) as the
// shared yardstick's gen-fixtures.mjs, so results compare: users/1.json (one object, ~130 B),
// users.json (100), users10k.json (10,000, ~1.4 MB), users100k.json (100,000, ~14 MB), compact
// JSON without a trailing newline. Every array is a prefix of the larger ones (same seed).
//   import { writeFixtures } from './fixtures.mjs'; await writeFixtures(dir)
//   node bench/fixtures.mjs --out DIR
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const FIRST = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Radia', 'Tim',
  'Frances', 'John', 'Katherine', 'Edsger', 'Hedy', 'Donald', 'Sophie', 'Guido', 'Anita', 'Bjarne',
  'Lucia', 'Marco', 'Giulia', 'Paolo', 'Elena', 'Luca', 'Sara', 'Andrea', 'Chiara', 'Matteo',
  'Yuki', 'Hiro', 'Amara', 'Kofi', 'Priya', 'Ravi', 'Mei', 'Chen', 'Olga', 'Ivan'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson',
  'Perlman', 'Berners-Lee', 'Allen', 'McCarthy', 'Johnson', 'Dijkstra', 'Lamarr', 'Knuth', 'Wilson',
  'van Rossum', 'Borg', 'Stroustrup', 'Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano',
  'Colombo', 'Ricci', 'Marino', 'Greco', 'Tanaka', 'Sato', 'Mensah', 'Okafor', 'Sharma', 'Patel',
  'Wang', 'Li', 'Ivanova', 'Petrov'];
const ROLES = [['admin', 0.10], ['editor', 0.20], ['viewer', 0.60], ['guest', 0.10]];
const DOMAINS = ['example.com', 'example.org', 'mail.test', 'corp.example'];
const T0 = Date.UTC(2019, 0, 1);
const T1 = Date.UTC(2025, 11, 31);

/** xorshift32: small and deterministic. */
function random(seed) {
  let s = (Number(seed) >>> 0) || 0x9e3779b9;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 0x100000000;
  };
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const slug = (s) => s.toLowerCase().replace(/[^a-z]+/g, '');
function role(rand) {
  let r = rand();
  for (const [name, weight] of ROLES) if ((r -= weight) < 0) return name;
  return ROLES[ROLES.length - 1][0];
}

export function makeUsers(n, seed = 42) {
  const rand = random(seed);
  const users = new Array(n);
  for (let i = 0; i < n; i++) {
    const first = pick(rand, FIRST);
    const last = pick(rand, LAST);
    const id = i + 1;
    users[i] = {
      id,
      name: `${first} ${last}`,
      email: `${slug(first)}.${slug(last)}${id}@${pick(rand, DOMAINS)}`,
      age: 18 + Math.floor(rand() * 62),
      role: role(rand),
      createdAt: new Date(T0 + Math.floor(rand() * (T1 - T0) / 1000) * 1000).toISOString(),
    };
  }
  return users;
}

export const SIZES = { users: 100, users10k: 10_000, users100k: 100_000 };

/** Writes the fixture tree into `dir`; resolves the list of files written. */
export async function writeFixtures(dir, seed = 42) {
  await mkdir(join(dir, 'users'), { recursive: true });
  const big = makeUsers(SIZES.users100k, seed);
  const files = [];
  for (const [name, n] of Object.entries(SIZES)) {
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify(big.slice(0, n)));
    files.push(file);
  }
  const one = join(dir, 'users', '1.json');
  await writeFile(one, JSON.stringify(big[0]));
  files.push(one);
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, seed: { type: 'string', default: '42' } } });
  if (!values.out) {
    console.error('usage: node bench/fixtures.mjs --out DIR [--seed 42]');
    process.exit(2);
  }
  console.log((await writeFixtures(values.out, Number(values.seed))).join('\n'));
}
