/**
 * Install step after patch-package: named rewrites of just-bash's three minified builds (Node's ESM and CJS, the
 * browser's), each for a behaviour of upstream's bash that just-bash lacks.
 *
 * 1. The order of stdout and stderr. Upstream's OS tasks run bash on a terminal (docker exec with a tty), where
 *    the agent sees both streams as one, in write order; just-bash returns them apart, so `cat missing; echo x`
 *    read "x" first. Each result gets `outputOrder`: the lengths of its runs on one stream, in order (positive:
 *    stdout, negative: stderr). The rules carry it through just-bash's output accumulators (statements,
 *    scripts, groups, subshells, loops, if/case bodies), control flow (break, continue, return, exit),
 *    pipelines (earlier stages' errors first), command substitutions' errors, redirections (`2>&1`, `&> f`,
 *    `> f 2>&1` join by it) and the final bytes-to-text decoding. A step that rebuilds a result another way
 *    drops or invalidates the record, and envs/os/embedded/output-order.ts then reads that part stdout first, as
 *    before. A single command's own two streams read stdout first (its writes are not recorded).
 * 2. A redirection into a directory that does not exist (`echo x > no/f`) fails that command with bash's
 *    "bash: no/f: No such file or directory" (status 1, the script goes on); the in-memory filesystem would make
 *    the directory (our filesystem layer now refuses, perms.ts, which without this rule ended the whole line).
 *
 * 3. A command substitution inside arithmetic (`$(( $(wc -l < f) + 1 ))`) runs in the current shell's
 *    context, as bash's does: just-bash ran it as a new top-level script (working directory "/", no variables),
 *    so relative paths and variables inside it failed. It now goes through just-bash's own `$(…)` helper.
 *
 * Written as rewrites rather than as a patch-package diff: these bundles are long lines, so a diff would repeat
 * about a megabyte of unchanged code and hide what changed. Each rule must match as often as it says
 * (just-bash 3.4.2); another version fails the install here with the rule's name. A new patch-package diff
 * must be made from files without these rewrites (it diffs whatever node_modules holds).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'node_modules/just-bash/dist/bundle/');
const HELPERS = `
function __jbOrdPush(o,n){if(!n)return;var l=o.length;if(l&&(o[l-1]>0)===(n>0))o[l-1]+=n;else o.push(n)}
function __jbOrdOf(o,a,b){a=typeof a==="string"?a.length:0;b=typeof b==="string"?b.length:0;if(Array.isArray(o)){var x=0,y=0;for(var n of o)n>0?x+=n:y-=n;if(x===a&&y===b)return o}var r=[];__jbOrdPush(r,a);__jbOrdPush(r,-b);return r}
function __jbOrdCat(a,b){var r=[];for(var n of a)__jbOrdPush(r,n);for(var m of b)__jbOrdPush(r,m);return r}
function __jbOrdAdd(o,s,a,b){for(var n of __jbOrdOf(s,a,b))__jbOrdPush(o,n)}
function __jbOrdAdopt(o,m,s,a,b){o.length=m;__jbOrdAdd(o,s,a,b)}
function __jbOrdPrefix(o,a,b,A,B){if(typeof A!=="string"||typeof B!=="string"||!A.startsWith(a)||!B.startsWith(b))return;var r=__jbOrdCat(__jbOrdOf(o,a,b),[]);__jbOrdPush(r,A.length-a.length);__jbOrdPush(r,b.length-B.length);return r}
function __jbOrdJoin(o,a,b){if(!Array.isArray(o))return a+b;var s=__jbOrdOf(o,a,b),r="",i=0,j=0;for(var n of s){if(n>0){r+=a.slice(i,i+n);i+=n}else{r+=b.slice(j,j-n);j-=n}}return r}
function __jbSameFile(h,m){return h.kind==="file"&&m.kind==="descriptor"&&!!m.source&&!!m.source.entry&&m.source.entry.path===h.path&&!!m.source.entry.append===!!h.append}
function __jbOrdKeep(r,s){if(r&&typeof r==="object"&&s&&s.outputOrder)r.outputOrder=s.outputOrder;return r}
async function __jbNoParent(f,p,n){var i=p.lastIndexOf("/"),d=i>0?p.slice(0,i):"/";if(!await f.exists(d))return"bash: "+n+": No such file or directory\\n";if(!(await f.stat(d)).isDirectory)return"bash: "+n+": Not a directory\\n";return null}
function __jbOrdDecode(t,f){var a=t.stdout,b=t.stderr,A=f(a),B=f(b);t.stdout=A;t.stderr=B;if(!Array.isArray(t.outputOrder)||A===a&&B===b)return;var s=__jbOrdOf(t.outputOrder,a,b),r=[],i=0,j=0;for(var n of s){if(n>0){__jbOrdPush(r,A===a?n:f(a.slice(i,i+n)).length);i+=n}else{__jbOrdPush(r,B===b?n:-f(b.slice(j,j-n)).length);j-=n}}t.outputOrder=__jbOrdOf(r,A,B)===r?r:void 0}
`;
const I = '[\\w$]+';
// just-bash's helper that runs a command substitution's text in the current shell (a subshell's state).
const SUBSTITUTE_FN = new RegExp(`async function (${I})\\((${I}),(${I})\\)\\{let (${I})=new (${I}),(${I});try\\{\\6=\\4\\.parse\\(\\3\\)\\}catch\\{return""\\}`);
/** Names found in the text being rewritten (minified names differ per build). */
const found = { substitute: '' };
const rules = [
  // ExecutionOutputAccumulator (compound commands, statements, scripts)
  ['vt-field', /stdoutChunks=\[\];stderrChunks=\[\];stdoutBytes=0/g, 'outputOrder=[];$&', 1],
  ['vt-push', new RegExp(`(${I})&&\\((${I})==="stdout"\\?this\\.stdoutChunks:this\\.stderrChunks\\)\\.push\\(\\1\\)`, 'g'), '$&,$1&&this.outputOrder.push($2==="stdout"?$1.length:-$1.length)', 1],
  ['vt-prependTo', /\.prependOutput\(this\.stdout,this\.stderr\)/g, '.prependOutput(this.stdout,this.stderr,this.outputOrder)', 1],
  ['vt-pairs', new RegExp(`(${I})\\.append\\("stdout",(${I})\\.stdout(,[^()]*)?\\),\\1\\.append\\("stderr",\\2\\.stderr(,[^()]*)?\\)`, 'g'),
    (_, o, r, a, b) => `${o}.appendOrdered(${r},${a ? a.slice(1) : 'void 0'},${b ? b.slice(1) : 'void 0'})`, 9],
  ['vt-appendResult', new RegExp(`(appendResult\\((${I}),(${I})=\\2\\.stdout\\)\\{)(.*?)\\}build\\(`, 'g'),
    '$1let __m=this.outputOrder.length;$4;__jbOrdAdopt(this.outputOrder,__m,$2.outputOrder,$3,$2.stderr)}appendOrdered(__r,__a,__b){let __m=this.outputOrder.length;this.append("stdout",__r.stdout,__a),this.append("stderr",__r.stderr,__b),__jbOrdAdopt(this.outputOrder,__m,__r.outputOrder,__r.stdout,__r.stderr)}build(', 1],
  ['vt-build', new RegExp(`build\\((${I}),(${I})\\)\\{return\\{stdout:this\\.stdoutChunks\\.join\\(""\\),stderr:this\\.stderrChunks\\.join\\(""\\),exitCode:\\1,`, 'g'), '$&outputOrder:this.outputOrder.slice(),', 1],
  // the loops' and if/case bodies' accumulator
  ['on-field', /stdoutChunks=\[\];stderrChunks=\[\];totalBytes=0;/g, 'outputOrder=[];$&', 1],
  ['on-append-head', new RegExp(`append\\((${I}),(${I})\\)\\{let (${I})=(${I})\\(\\1\\)\\+\\4\\(\\2\\);`, 'g'), 'append($1,$2,__o){let $3=$4($1)+$4($2);', 1],
  ['on-append', new RegExp(`(${I})&&this\\.stdoutChunks\\.push\\(\\1\\),(${I})&&this\\.stderrChunks\\.push\\(\\2\\),this\\.totalBytes\\+=(${I})\\}appendUnaccounted\\(`, 'g'),
    '$1&&this.stdoutChunks.push($1),$2&&this.stderrChunks.push($2),this.totalBytes+=$3,__jbOrdAdd(this.outputOrder,__o,$1,$2)}appendUnaccounted(', 1],
  ['on-replace', new RegExp(`replace\\((${I}),(${I})\\)\\{this\\.stdoutChunks=\\[\\],this\\.stderrChunks=\\[\\],this\\.totalBytes=0,this\\.append\\(\\1,\\2\\)\\}`, 'g'),
    'replace($1,$2,__o){let __p=__o??__jbOrdPrefix(this.outputOrder,this.stdout,this.stderr,$1,$2);this.stdoutChunks=[],this.stderrChunks=[],this.totalBytes=0,this.outputOrder=[],this.append($1,$2,__p)}', 1],
  ['on-build', new RegExp(`build\\((${I})\\)\\{let (${I})=this\\.stdout,(${I})=this\\.stderr;return\\{stdout:\\2,stderr:\\3,exitCode:\\1,`, 'g'), '$&outputOrder:this.outputOrder.slice(),', 1],
  ['on-calls', new RegExp(`\\.append\\((${I})\\.stdout,\\1\\.stderr\\)`, 'g'), '.append($1.stdout,$1.stderr,$1.outputOrder)', 10],
  // control-flow errors carry the output before them
  ['err-prepend', new RegExp(`prependOutput\\((${I}),(${I})\\)\\{this\\.stdout=\\1\\+this\\.stdout,`, 'g'),
    'prependOutput($1,$2,__o){this.outputOrder=__jbOrdCat(__jbOrdOf(__o,$1,$2),__jbOrdOf(this.outputOrder,this.stdout,this.stderr)),this.stdout=$1+this.stdout,', 1],
  ['prepend-calls', new RegExp(`\\.prependOutput\\((${I})\\.stdout,\\1\\.stderr\\)`, 'g'), '.prependOutput($1.stdout,$1.stderr,$1.outputOrder)', -1],
  // results rebuilt from an error or another result keep its order
  ['copies', new RegExp(`\\{stdout:(${I})\\.stdout,stderr:\\1\\.stderr,exitCode:`, 'g'), '{stdout:$1.stdout,stderr:$1.stderr,outputOrder:$1.outputOrder,exitCode:', -1],
  ['rebuilt', new RegExp(`(${I})\\((${I})\\.stdout,\\2\\.stderr,\\2\\.exitCode\\)`, 'g'), '__jbOrdKeep($1($2.stdout,$2.stderr,$2.exitCode),$2)', -1],
  // a command's expansion errors ($(…)) come before its own output; a pipeline's earlier stages' errors before the last's output
  ['expansion', new RegExp(`(${I})=\\{\\.\\.\\.\\1,stderr:this\\.ctx\\.state\\.expansionStderr\\+\\1\\.stderr\\}`, 'g'),
    '$1={...$1,stderr:this.ctx.state.expansionStderr+$1.stderr,outputOrder:__jbOrdCat([-this.ctx.state.expansionStderr.length],__jbOrdOf($1.outputOrder,$1.stdout,$1.stderr))}', 3],
  ['pipeline', new RegExp(`(${I})&&\\((${I})=\\{\\.\\.\\.\\2,stderr:\\1\\+\\2\\.stderr,`, 'g'),
    '$&outputOrder:__jbOrdCat([-$1.length],__jbOrdOf($2.outputOrder,$2.stdout,$2.stderr)),', 1],
  // a compound command's redirections rebuild its result: the order stays when its two streams did
  ['redirected', new RegExp(`let (${I})=(${I})\\((${I}),(${I}),(${I})\\);if\\((${I})\\.stdoutKind&&\\(\\1\\.stdoutKind=\\6\\.stdoutKind\\)`, 'g'),
    'let $1=$2($3,$4,$5);$3===$6.stdout&&$4===$6.stderr&&($1.outputOrder=$6.outputOrder);if($6.stdoutKind&&($1.stdoutKind=$6.stdoutKind)', 1],
  // …and where both streams go to one place (2>&1, &> file, > file 2>&1) they go in the order written
  ['redirect-order', new RegExp(`let\\{stdout:(${I}),stderr:(${I}),exitCode:(${I})\\}=(${I}),`, 'g'), 'let{stdout:$1,stderr:$2,exitCode:$3}=$4,__ord=$4.outputOrder,', 1],
  ['redirect-file', new RegExp(`if\\((${I})===(${I})&&\\(\\1\\.kind==="file"\\|\\|\\1\\.kind==="descriptor"\\)\\)\\{let (${I})=(${I})\\+(${I});`, 'g'),
    'if(($1===$2||__jbSameFile($1,$2))&&($1.kind==="file"||$1.kind==="descriptor")){let $3=__jbOrdJoin(__ord,$4,$5);', 1],
  ['redirect-live', new RegExp(`else for\\(let\\[(${I}),(${I}),(${I})\\]of\\[\\[(${I}),(${I}),!0\\],\\[(${I}),(${I}),!1\\]\\]\\)if\\(\\1!==""\\)switch\\(\\2\\.kind\\)\\{case"live-stdout":(${I})\\+=\\1;break;case"live-stderr":(${I})\\+=\\1;break;`, 'g'),
    'else if($5.kind===$7.kind&&($5.kind==="live-stdout"||$5.kind==="live-stderr")){let __j=__jbOrdJoin(__ord,$4,$6);$5.kind==="live-stdout"?$8+=__j:$9+=__j}else for(let[$1,$2,$3]of[[$4,$5,!0],[$6,$7,!1]])if($1!=="")switch($2.kind){case"live-stdout":$8+=$1;break;case"live-stderr":$9+=$1;break;', 1],
  // 2. a redirection's target checked before the command runs: its directory must exist
  ['redirect-parent', new RegExp(`async function (${I})\\((${I}),(${I}),(${I}),(${I})\\)\\{try\\{if\\(!await \\2\\.fs\\.exists\\(\\3\\)\\)return null;`, 'g'),
    'async function $1($2,$3,$4,$5){try{if(!await $2.fs.exists($3))return await __jbNoParent($2.fs,$3,$4);', 1],
  // 3. arithmetic's $(…) through the current shell
  ['arith-substitution', new RegExp(`await (${I})\\.execFn\\((${I})\\.command,\\{signal:\\1\\.state\\.signal\\}\\)`, 'g'),
    (_, ctx, node) => `{stdout:await ${found.substitute}(${ctx},${node}.command),stderr:""}`, 2],
  // the final bytes-to-text decoding maps each piece's length
  ['decode', new RegExp(`(${I})\\.stdout=(${I})\\(\\1\\.stdout\\),\\1\\.stderr=\\2\\(\\1\\.stderr\\)`, 'g'), '__jbOrdDecode($1,$2)', 1],
];
// Each build's files: Node's ESM build keeps two of the classes in chunks.
const builds = { 'index.js': ['index.js', 'chunks/chunk-J2OBOJ64.js', 'chunks/chunk-EFORKKSH.js'], 'index.cjs': ['index.cjs'], 'browser.js': ['browser.js'] };
let failed = false;
for (const [build, files] of Object.entries(builds)) {
  const texts = files.map((file) => fs.readFileSync(dir + file, 'utf8'));
  if (texts.some((text) => text.includes('function __jbOrdPush'))) continue; // done at an earlier install
  const counts = {};
  const patched = texts.map((text) => {
    found.substitute = SUBSTITUTE_FN.exec(text)?.[1] ?? '__jbMissingSubstitute';
    for (const [name, re, replacement] of rules) {
      const n = (text.match(re) ?? []).length;
      counts[name] = (counts[name] ?? 0) + n;
      if (n) text = text.replace(re, replacement);
    }
    return text.includes('__jb') ? `${text}\n${HELPERS}` : text;
  });
  const wrong = rules.filter(([name, , , want]) => want >= 0 && counts[name] !== want);
  if (patched.some((text) => text.includes('__jbMissingSubstitute'))) wrong.push(['arith-substitution (its helper not in the same file)', null, null, 2]);
  if (wrong.length) {
    failed = true;
    for (const [name, , , want] of wrong) console.error(`just-bash rewrites: rule ${name} matched ${counts[name]} times in ${build}, not ${want}`);
    continue;
  }
  files.forEach((file, i) => fs.writeFileSync(dir + file, patched[i]));
}
if (failed) process.exit(1);
