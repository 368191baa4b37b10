export function mockyardAliases(from: 'dist' | 'src'): Array<{ find: RegExp; replacement: string }>;
