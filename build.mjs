// The front-end build: `node build.mjs` (or `npm run build`) bundles static/ into
// static/dist/ (NOOK_ASSETS overrides the folder) and writes static/dist/manifest.json,
// which the server reads at start (app/assets.py). See docs/architecture.md, "Assets".
//
// - one script per page (esbuild, ES modules, minified, source maps): shell.js and the
//   page's own module, each built on its own, so a page loads one file; what a page
//   imports only when needed (import()) is split into chunks (splitting), and a chunk its
//   script imports statically is named in the manifest for <link rel=modulepreload>;
// - one stylesheet per page: the site's shared parts (static/css/site/NN-*.css, in name
//   order, the cascade's) and the parts of that page alone (PAGES below), so no page
//   carries another page's styles;
// - the catalogs, each merged from the site's shared file (static/i18n/<lang>.json) and
//   every game's own (static/i18n/games/<game>/<lang>.json): each language whole (the
//   lobby, /me), the shell's words alone (SHELL_KEYS) and two slices per game: its words
//   and the shared ones, without the other games', nor those of the lobby, /me or the
//   offline page (PAGE_ONLY_KEYS), for its play page, and with the replay's (replay.*,
//   games.<game>.replay.*) for its replay; each without the refusals of features its
//   page's script does not hold (FEATURE_ERRORS);
// - the icons, copied;
// - beside each script, stylesheet and catalog, its brotli and gzip forms (<file>.br, .gz).
// Every file's name carries the hash of its content: its URL is cached for good.
// The manifest's `version` is a hash of every file's name: the service worker's cache.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const STATIC = path.join(ROOT, 'static');
const OUT = path.resolve(ROOT, process.env.NOOK_ASSETS || path.join('static', 'dist'));
// NOOK_MINIFY=0 keeps the scripts' names and lines (a profile's functions read as written:
// bench/long_tasks.py --profile builds such a copy in a folder of its own).
const MINIFY = process.env.NOOK_MINIFY !== '0';
const SITE_CSS = path.join(STATIC, 'css', 'site');
const GAMES = readdirSync(path.join(STATIC, 'js', 'games')).sort();
// Games packaged outside this repository whose play pages this build carries too (a
// plugin, a test's fixture game; docs/adding-a-game.md): GAME_PACKAGES, their folders
// separated by ':', each named as its game, with its page script `static/main.js` (which
// imports the site's modules as `@site/…`), its stylesheet `static/<game>.css` if any and
// its words `i18n/<lang>.json`.
const PACKAGES = Object.fromEntries(
  (process.env.GAME_PACKAGES || '')
    .split(':')
    .filter(Boolean)
    .map((folder) => [path.basename(folder), path.resolve(ROOT, folder)]),
);

// Parts of static/css/site/ that only some pages show; every other part is every page's.
const ONLY = {
  '02-artwork-tokens.css': ['lobby', 'me', 'not_found', 'offline'],
  '09-lobby.css': ['lobby', 'me'],
  '10-not-found.css': ['not_found', 'offline'],
  '11-game-page.css': ['game', 'replay'],
  '17-end-card.css': ['game', 'replay'],
  '18-quick-pairing.css': ['lobby'],
  '19-leaderboard.css': ['leaderboard'],
  '19-pwa.css': ['me', 'offline'],
  '20-arena-cards.css': ['arena', 'arenas', 'lobby'],
  '21-arenas.css': ['arena', 'arenas'],
};

/** A stylesheet's sources: a file, or a folder of parts joined in name order. */
function sheet(name) {
  const folder = path.join(STATIC, 'css', name);
  try {
    return readdirSync(folder).filter((file) => file.endsWith('.css')).sort().map((file) => path.join(folder, file));
  } catch {
    return [path.join(STATIC, 'css', `${name}.css`)];
  }
}

function siteParts(kind) {
  return readdirSync(SITE_CSS)
    .filter((file) => file.endsWith('.css') && (!ONLY[file] || ONLY[file].includes(kind)))
    .sort()
    .map((file) => path.join(SITE_CSS, file));
}

// page → its module (besides shell.js) and its stylesheets, in cascade order.
const PAGES = {
  lobby: { js: 'lobby.js', css: siteParts('lobby') },
  me: { js: 'me.js', css: [...siteParts('me'), ...sheet('me')] },
  leaderboard: { js: null, css: siteParts('leaderboard') },
  arena: { js: 'arena.js', css: siteParts('arena') },
  arenas: { js: 'arenas.js', css: siteParts('arenas') },
  not_found: { js: null, css: siteParts('not_found') },
  offline: { js: 'offline.js', css: siteParts('offline') },
  // A game served without a bundle of its own (one packaged outside this repository).
  game: { js: null, css: siteParts('game') },
  // a replay page's styles hold its review's (review.css): the review shows on every
  // finished game of a game that reviews, and a stylesheet of its own was a request more
  replay: { js: 'replay.js', css: [...siteParts('replay'), ...sheet('replay'), ...sheet('review')] },
};
for (const game of GAMES) {
  PAGES[`game-${game}`] = { js: `games/${game}/main.js`, css: [...siteParts('game'), ...sheet(game)] };
  PAGES[`replay-${game}`] = { js: 'replay.js', css: [...siteParts('replay'), ...sheet(game), ...sheet('replay'), ...sheet('review')] };
}
for (const [game, folder] of Object.entries(PACKAGES)) {
  const own = path.join(folder, 'static', `${game}.css`);
  PAGES[`game-${game}`] = { js: path.join(folder, 'static', 'main.js'), key: `games-${game}`, css: [...siteParts('game'), ...(existsSync(own) ? [own] : [])] };
}

const hash = (bytes) => createHash('sha256').update(bytes).digest('base64url').replace(/[-_]/g, '').slice(0, 10);

/** Entries are virtual modules (page:js:<name>, page:css:<name>) importing their sources. */
const pagesPlugin = {
  name: 'pages',
  setup(build) {
    build.onResolve({ filter: /^page:/ }, (args) => ({ path: args.path, namespace: 'page' }));
    build.onLoad({ filter: /.*/, namespace: 'page' }, (args) => {
      const [, kind, name] = args.path.split(':');
      const page = PAGES[name];
      const sources = kind === 'js' ? ['shell.js', ...(page.js ? [page.js] : [])].map((js) => path.resolve(STATIC, 'js', js)) : page.css;
      const line = kind === 'js' ? (file) => `import ${JSON.stringify(file)};` : (file) => `@import ${JSON.stringify(file)};`;
      return { contents: sources.map(line).join('\n'), loader: kind, resolveDir: STATIC };
    });
  },
};

// One JS entry per distinct module list (the replay pages share one), one CSS entry per page.
// Each script is built on its own: a page loads one file (and the chunks of what it imports
// only when needed, import()), not its entry and the chunks it shares with other pages, each
// a request more on a cold visit. Code two pages share is in both files: the service worker
// precaches it twice, a page never loads it twice.
const jsEntries = {}; // entry key → page name
for (const [name, page] of Object.entries(PAGES)) {
  const key = page.key ?? (page.js ? page.js.replace(/\.js$/, '').replaceAll('/', '-').replace(/-main$/, '') : 'shell');
  if (!(key in jsEntries)) {
    jsEntries[key] = name;
  }
  page.script = key;
}

rmSync(OUT, { recursive: true, force: true });
const common = {
  bundle: true,
  minify: MINIFY,
  sourcemap: 'linked',
  metafile: true,
  outdir: OUT,
  outbase: STATIC,
  plugins: [pagesPlugin],
  logLevel: 'warning',
  legalComments: 'none',
  charset: 'utf8',
  alias: { '@site': path.join(STATIC, 'js') }, // what a packaged game's script imports
};
const builds = [];
for (const key of Object.keys(jsEntries)) {
  builds.push(
    await esbuild.build({
      ...common,
      entryPoints: [{ in: `page:js:${jsEntries[key]}`, out: `js/${key}` }],
      format: 'esm',
      splitting: true,
      entryNames: '[dir]/[name]-[hash]',
      chunkNames: 'js/chunk-[hash]',
    }),
  );
}
builds.push(
  await esbuild.build({
    ...common,
    entryPoints: Object.keys(PAGES).map((name) => ({ in: `page:css:${name}`, out: `css/${name}` })),
    entryNames: '[dir]/[name]-[hash]',
  }),
);

const relative = (file) => path.relative(OUT, path.resolve(ROOT, file)).split(path.sep).join('/');
const outputs = Object.assign({}, ...builds.map((build) => build.metafile.outputs));
const byEntry = {};
for (const [file, output] of Object.entries(outputs)) {
  if (output.entryPoint) byEntry[output.entryPoint] = file;
}

/** The chunks an entry imports statically, all the way down (modulepreload them). */
function preloads(file, seen = new Set()) {
  for (const imported of outputs[file].imports) {
    if (imported.kind === 'import-statement' && !seen.has(imported.path)) {
      seen.add(imported.path);
      preloads(imported.path, seen);
    }
  }
  return [...seen];
}

/** The files of a page's script: its entry and every chunk it imports, at once or on
 * demand. A game without a page of its own (packaged) runs the shared one (`replay`), as
 * app/assets.py serves it. */
function scriptFilesOf(name) {
  const page = PAGES[name] ?? PAGES[name.split('-')[0]];
  const files = page?.script ? [byEntry[`page:page:js:${jsEntries[page.script]}`]] : [];
  for (let index = 0; index < files.length; index += 1) {
    for (const imported of outputs[files[index]].imports) {
      if (imported.path in outputs && !files.includes(imported.path)) files.push(imported.path);
    }
  }
  return files;
}
/** Every source module (under static/js/) a page's script may run. */
const modulesOf = (name) =>
  new Set(scriptFilesOf(name).flatMap((file) => Object.keys(outputs[file].inputs).map((input) => input.replace(/^static\/js\//, ''))));
/** A page's script as built (what the minifier kept of its modules). */
const scriptOf = (name) => scriptFilesOf(name).map((file) => readFileSync(file, 'utf8')).join('\n');

const manifest = { version: '', pages: {}, files: {}, bundle: [] };
for (const [name, page] of Object.entries(PAGES)) {
  const entry = { css: relative(byEntry[`page:page:css:${name}`]) };
  if (page.script) {
    const script = byEntry[`page:page:js:${jsEntries[page.script]}`];
    entry.js = relative(script);
    entry.preload = preloads(script).map(relative);
    // the chunks it imports on demand, by module (a template may preload one it will need)
    entry.lazy = Object.fromEntries(
      outputs[script].imports
        .filter((imported) => imported.kind === 'dynamic-import')
        .map((imported) => [outputs[imported.path].entryPoint.replace(/^static\/js\//, ''), relative(imported.path)]),
    );
  }
  manifest.pages[name] = entry;
}

/** A file written under its content's hash: `<dir>/<stem>-<hash><ext>`. */
function emit(source, bytes) {
  const ext = path.extname(source);
  const named = `${source.slice(0, -ext.length)}-${hash(bytes)}${ext}`;
  mkdirSync(path.dirname(path.join(OUT, named)), { recursive: true });
  writeFileSync(path.join(OUT, named), bytes);
  manifest.files[source] = named;
}

// Files a page loads by URL, minified and hashed, the URL read from an attribute of <html>:
// the worker core/intl.js starts (data-intl-worker; esbuild leaves `new URL(…,
// import.meta.url)` to the browser) and the sounds core/sound.js imports at a first touch
// (data-sound-notes). Bundled as an import() chunk, the sounds pulled esbuild's runtime
// into a chunk of its own, a request more on every replay page.
// The worker is a classic script (its top-level names are globals), the sounds a module.
for (const [file, format] of [['js/core/intl-worker.js', undefined], ['js/core/sound-notes.js', 'esm']]) {
  const { code } = await esbuild.transform(readFileSync(path.join(STATIC, file), 'utf8'), { minify: MINIFY, loader: 'js', format });
  emit(file, code);
}

for (const file of readdirSync(path.join(STATIC, 'icons')).sort()) {
  emit(`icons/${file}`, readFileSync(path.join(STATIC, 'icons', file)));
}

// The catalogs (app/i18n.py reads the same files): the site's shared words in
// static/i18n/<lang>.json and each game's in static/i18n/games/<game>/<lang>.json, merged;
// a key in two files stops the build.
const I18N = path.join(STATIC, 'i18n');
const CATALOG_GAMES = [
  ...readdirSync(path.join(I18N, 'games'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name),
  ...Object.keys(PACKAGES),
].sort();
const catalogFile = (game, lang) =>
  game in PACKAGES ? path.join(PACKAGES[game], 'i18n', `${lang}.json`) : path.join(I18N, 'games', game, `${lang}.json`);
function catalog(lang) {
  const files = [path.join(I18N, `${lang}.json`), ...CATALOG_GAMES.map((game) => catalogFile(game, lang))];
  const words = {};
  const source = {};
  for (const file of files) {
    for (const [key, text] of Object.entries(JSON.parse(readFileSync(file, 'utf8')))) {
      if (key in words) throw new Error(`catalog key ${key} is in both ${source[key]} and ${file}`);
      words[key] = text;
      source[key] = file;
    }
  }
  return words;
}

// Words no game page shows: the lobby's, /me's, its notifications', the offline page's, the
// arenas' (the game page has its own few, games.<game>.arena.*), and (but on the game's
// replay page) the replay's, the site's and the game's own.
const PAGE_ONLY_KEYS = ['lobby.', 'me.', 'push.', 'offline.', 'arena.', 'arenas.'];
// Words only the server's templates print, never a script (the leaderboard, the not-found
// page, the app manifest's name): in no catalog file at all.
const TEMPLATE_ONLY_KEYS = ['leaderboard.', 'site.notfound.', 'pwa.'];
const REPLAY_KEYS = ['replay.'];
// The words shell.js itself shows (the theme and sound toggles): the whole catalog of the
// pages whose script is the shell alone, the leaderboard and the not-found page
// (i18n/<lang>/shell.json, their templates name it).
const SHELL_KEYS = ['site.'];
// The arena pages' words (arenas.*) only they load: their slice, i18n/<lang>/arenas.json
// (templates/arena.html names it), holds the site's shared words, the arenas' and of each
// game its title, clocks and refusals; the whole catalog (the lobby's, /me's) goes without.
const ARENA_KEYS = ['arenas.'];
// Refusals only one feature's requests meet, by the modules that make them: a game's slices
// carry their words only when the page's script holds such a module (at once or on demand).
// A page of a game played alone goes without the arenas', pairing's, notifications',
// transfers', reviews' and replays' refusals; every other error.* word goes to every page.
const FEATURE_ERRORS = [
  // the arena pages' requests (making, joining, leaving, watching an arena); a game's page
  // reads its arena's end (quietly) and may go berserk, which only a game outside any arena refuses
  { modules: /^(arenas?\.js$|arena\/)/, codes: ['arena_not_found', 'arena_private', 'arena_over', 'bad_minutes', 'bad_start', 'not_in_arena', 'name_required'] },
  { modules: /(^|\/)arenas?(\.js$|\/)/, codes: ['no_arenas'] },
  { modules: /^lobby\/seek\.js$/, codes: ['seek_not_found', 'seek_paired'] },
  { modules: /^me\/notify\.js$/, codes: ['push_off', 'bad_endpoint', 'too_many_subscriptions', 'no_player'] },
  { modules: /^me\/transfer\.js$/, codes: ['bad_code', 'nothing_to_transfer'] },
  { modules: /^review\.js$/, codes: ['no_review', 'too_many_reviews', 'game_not_over', 'game_aborted'] },
  { modules: /^replay\.js$/, codes: ['bad_ply', 'illegal_log', 'replay_forbidden'] },
];
/** The words of a page's slice its script never shows: the refusals of the features it does
 * not reach, and the common words it does not name. */
function unreachedWords(page, keys) {
  const source = scriptOf(page);
  const built = source.match(/["'`]common\.[\w.]*\$\{/);
  if (built) throw new Error(`${page}: a common word built from parts (${built[0]}…): name each whole`);
  const named = (key) => ["'", '"', '`'].some((quote) => source.includes(`${quote}${key}${quote}`));
  const unnamed = keys.filter((key) => key.startsWith(COMMON_KEYS) && !named(key));
  return new Set([...unreachedErrors(modulesOf(page)), ...unnamed]);
}
/** The error.* keys of the features none of ``modules`` reaches. */
const unreachedErrors = (modules) =>
  new Set(FEATURE_ERRORS.filter(({ modules: makers }) => ![...modules].some((module) => makers.test(module))).flatMap(({ codes }) => codes.map((code) => `error.${code}`)));
const ARENA_GAME_KEYS = ['title', 'clock.choice.', 'error.'];
// The words every page may show (common.*) are named whole where they are shown, never built
// from parts: a game's slices carry those the page's script names (the Triangles page goes
// without Blocks' score, Pairs' streak, the daily boards' notes).
const COMMON_KEYS = 'common.';
const unreachedOf = {}; // page → its unreached error and common keys, the same in every language
for (const lang of readdirSync(I18N).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length)).sort()) {
  const starts = (key, prefixes) => prefixes.some((prefix) => key.startsWith(prefix));
  const words = Object.fromEntries(Object.entries(catalog(lang)).filter(([key]) => !starts(key, TEMPLATE_ONLY_KEYS)));
  const kept = (test) => JSON.stringify(Object.fromEntries(Object.entries(words).filter(([key]) => test(key))));
  emit(`i18n/${lang}.json`, kept((key) => !starts(key, ARENA_KEYS)));
  emit(`i18n/${lang}/shell.json`, kept((key) => starts(key, SHELL_KEYS)));
  const gameWords = CATALOG_GAMES.flatMap((game) => ARENA_GAME_KEYS.map((part) => `games.${game}.${part}`));
  emit(
    `i18n/${lang}/arenas.json`,
    kept((key) => (key.startsWith('games.') ? starts(key, gameWords) : !starts(key, [...PAGE_ONLY_KEYS, ...REPLAY_KEYS].filter((p) => !p.startsWith('arena'))))),
  );
  for (const game of CATALOG_GAMES) {
    const others = CATALOG_GAMES.filter((other) => other !== game).map((other) => `games.${other}.`);
    const slice = (dropped, page) => {
      const unreached = (unreachedOf[page] ??= unreachedWords(page, Object.keys(words)));
      const keep = ([key]) => !unreached.has(key) && !dropped.some((prefix) => key.startsWith(prefix));
      return JSON.stringify(Object.fromEntries(Object.entries(words).filter(keep)));
    };
    emit(`i18n/${lang}/${game}.json`, slice([...others, ...PAGE_ONLY_KEYS, ...REPLAY_KEYS, `games.${game}.replay.`], `game-${game}`));
    emit(`i18n/${lang}/${game}.replay.json`, slice([...others, ...PAGE_ONLY_KEYS], `replay-${game}`));
  }
}

manifest.bundle = [
  ...Object.keys(outputs).map(relative).filter((file) => !file.endsWith('.map')),
  ...Object.values(manifest.files),
].sort();
manifest.version = hash(manifest.bundle.join('\n')).slice(0, 12);

// Each text file also compressed, once and at the best level (the server sends the one the
// browser takes): brotli a tenth smaller than gzip at the level a server compresses on the fly.
for (const file of manifest.bundle.filter((name) => /\.(js|css|json)$/.test(name))) {
  const bytes = readFileSync(path.join(OUT, file));
  const quality = { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
  writeFileSync(path.join(OUT, `${file}.br`), zlib.brotliCompressSync(bytes, { params: quality }));
  writeFileSync(path.join(OUT, `${file}.gz`), zlib.gzipSync(bytes, { level: 9 }));
}
writeFileSync(path.join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
console.log(`${path.relative(ROOT, OUT) || '.'}: ${manifest.bundle.length} files, version ${manifest.version}`);
