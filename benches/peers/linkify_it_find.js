#!/usr/bin/env node
// Print the url of every link that linkify-it (npm `linkify-it`) finds in
// FILE, one per line, for benches/compare.sh.
//
// Usage: NODE_PATH=<dir with node_modules/linkify-it> node linkify_it_find.js FILE
//
// The library's default options are used: links with a schema
// (http:, https:, ftp:, //, mailto:), fuzzy e-mail addresses (a bare
// joe@example.com is reported as mailto:joe@example.com) and no fuzzy
// links (a bare example.com is not reported). The whole file is matched
// at once; input that is not UTF-8 is decoded with U+FFFD replacements.
'use strict';

const fs = require('fs');
// linkify-it 5 exported the class itself; 6 exports { LinkifyIt, ... }.
const mod = require('linkify-it');
const LinkifyIt = typeof mod === 'function' ? mod : mod.LinkifyIt;

if (process.argv.length !== 3) {
  process.stderr.write('usage: linkify_it_find.js FILE\n');
  process.exit(2);
}
const text = fs.readFileSync(process.argv[2], 'utf8');
const matches = new LinkifyIt().match(text) || [];
const out = [];
for (const m of matches) out.push(m.url);
if (out.length) fs.writeSync(1, out.join('\n') + '\n');
