#!/usr/bin/env python3
"""Build the suite as commits in a git repository holding a kernel tree's
files: scripts/export-series formats them as a patch series.

    series.py ROOT TREE SERIES REPO

ROOT is the project, TREE a kernel tree (with or without the overlay: the
files the overlay changed are read as they were before it), SERIES a folder
of scripts/kernel-patches/, REPO a folder that does not exist yet.  REPO
gets the clean tree's files the series touches, committed as "base", then
one commit per patch: the kernel-side patches of SERIES (git am), the
fixture, one commit per test symbol of Kconfig.kunit.

The cut is taken from the project's files, so the series follows them:
- Kconfig.kunit: the symbol without a prompt is the fixture's, each symbol
  with one is a patch of its own, in the file's order;
- mm/tests/Makefile: a paragraph (lines between blank lines) that names
  CONFIG_<SYM> of a test symbol belongs to that symbol's patch, and the
  objects it lists are that patch's files; every other paragraph, and every
  other file of mm/tests/, is the fixture's;
- mm/tests/.kunitconfig: the line CONFIG_<SYM>=y of a test symbol is that
  patch's, every other line the fixture's;
- the hook lines scripts/hooks.list appends to files under mm/ are the
  fixture's, without the overlay's begin/end markers (hooks on other files
  are the test harness's, not the suite's);
- MAINTAINERS gets an entry for the suite; each patch adds its files to it.
Prints the number of commits after "base".
"""
import os
import re
import subprocess
import sys

PLACEHOLDER_NAME = 'Sender Name'
PLACEHOLDER_EMAIL = 'sender@example.invalid'
ENTRY = 'MEMORY MANAGEMENT - LRU KUNIT TESTS'


def die(msg):
    sys.stderr.write(f'series.py: error: {msg}\n')
    sys.exit(1)


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def clean_file(tree, rel):
    """TREE's REL as it was before the overlay (None if it does not exist)."""
    manifest = os.path.join(tree, '.lrutest-overlay')
    if os.path.exists(manifest):
        for line in read(manifest).splitlines():
            f = line.split()
            if len(f) >= 2 and f[1] == rel:
                if f[0] == 'kpatch':
                    return read(os.path.join(tree, '.lrutest-overlay.d', rel))
                if f[0] == 'hook':
                    with open(os.path.join(tree, rel), 'rb') as fh:
                        return fh.read(int(f[3])).decode('utf-8')
                if f[0] == 'link':
                    return None
    path = os.path.join(tree, rel)
    if os.path.islink(path) or not os.path.isfile(path):
        return None
    return read(path)


def kconfig_stanzas(text):
    """(header, [(symbol, has_prompt, stanza text)]) of a Kconfig file."""
    parts = re.split(r'(?m)^(?=config )', text)
    header, out = parts[0], []
    for p in parts[1:]:
        sym = p.split()[1]
        prompt = re.search(r'(?m)^\s+bool\s+"', p) is not None
        out.append((sym, prompt, p))
    return header, out


def help_text(stanza):
    """The help paragraphs of a Kconfig stanza, unindented, without the
    boilerplate lines every KUnit symbol carries."""
    m = re.search(r'(?ms)^\thelp\n(.*)', stanza)
    lines = [ln[3:] if ln.startswith('\t  ') else ln.strip() for ln in m.group(1).splitlines()]
    text = '\n'.join(lines).strip()
    paras = [p for p in text.split('\n\n')
             if not p.startswith('For more information on KUnit') and p != 'If unsure, say N.']
    return '\n\n'.join(paras)


def as_commit_text(help_para):
    """A Kconfig help text ("Builds KUnit tests of ...") as a commit
    message says it ("Add KUnit tests of ...")."""
    return re.sub(r'^Builds ', 'Add ', help_para)


def prompt_of(stanza):
    return re.search(r'(?m)^\s+bool\s+"([^"]*)"', stanza).group(1)


def makefile_paragraphs(text):
    return text.rstrip('\n').split('\n\n')


def paragraph_symbol(para, tests):
    for sym in tests:
        if f'CONFIG_{sym})' in para:
            return sym
    return None


def hooks(root):
    out = []
    for line in read(os.path.join(root, 'scripts', 'hooks.list')).splitlines():
        if not line or line.startswith('#'):
            continue
        f, _style, _anchor, body = line.split('|', 3)
        if f.startswith('mm/'):
            out.append((f, body.replace('\\n', '\n') + '\n'))
    return out


def maintainers_with(text, files):
    """MAINTAINERS with the suite's entry listing FILES (sorted), inserted
    where the entries' names first step over its own."""
    lines = text.split('\n')
    start = None
    for i, ln in enumerate(lines):
        if ln == ENTRY:
            start = i
            break
    if start is not None:
        end = start
        while end < len(lines) and lines[end] != '':
            end += 1
        del lines[start:end + 1]
    entry = [ENTRY, f'M:\t{PLACEHOLDER_NAME} <{PLACEHOLDER_EMAIL}>', 'L:\tlinux-mm@kvack.org',
             'S:\tMaintained'] + [f'F:\t{f}' for f in sorted(files)] + ['']
    prev = ''
    for i, ln in enumerate(lines):
        if (re.match(r'[A-Z0-9]', ln) and not re.match(r'[A-Z]:\t', ln)
                and i + 1 < len(lines) and re.match(r'[A-Z]:\t', lines[i + 1])):
            if prev < ENTRY < ln:
                return '\n'.join(lines[:i] + entry + lines[i:])
            prev = ln
    die('MAINTAINERS: found no place for the suite\'s entry among its sorted entries')
    return None


def wrap(text, width=72):
    """Re-wrap the prose paragraphs of TEXT; an indented paragraph (a
    command) stays as it is."""
    out = []
    for para in text.split('\n\n'):
        if para.startswith(' '):
            out.append(para)
            continue
        lines, cur = [], ''
        for w in para.split():
            if cur and len(cur) + 1 + len(w) > width:
                lines.append(cur)
                cur = w
            else:
                cur = f'{cur} {w}' if cur else w
        if cur:
            lines.append(cur)
        out.append('\n'.join(lines))
    return '\n\n'.join(out)


def main():
    if len(sys.argv) != 5:
        die('usage: series.py ROOT TREE SERIES REPO')
    root, tree, series, repo = sys.argv[1:]
    if os.path.exists(repo):
        die(f'{repo} exists')
    env = dict(os.environ, GIT_AUTHOR_NAME=PLACEHOLDER_NAME, GIT_AUTHOR_EMAIL=PLACEHOLDER_EMAIL,
               GIT_COMMITTER_NAME=PLACEHOLDER_NAME, GIT_COMMITTER_EMAIL=PLACEHOLDER_EMAIL)

    def git(*args, stdin=None):
        r = subprocess.run(['git', '-C', repo, *args], env=env, text=True, input=stdin,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        if r.returncode:
            err = r.stderr.strip().splitlines()
            die(f'git {args[0]}: {err[-1] if err else r.returncode}')
        return r.stdout

    patches = sorted(p for p in os.listdir(series) if p.endswith('.patch'))
    kfiles = set()
    for p in patches:
        kfiles.update(re.findall(r'(?m)^\+\+\+ b/(\S+)', read(os.path.join(series, p))))
    hooked = hooks(root)
    base_files = sorted(kfiles | {f for f, _ in hooked} | {'MAINTAINERS'})
    os.makedirs(repo)
    git('init', '-q')
    git('config', 'gc.auto', '0')
    for rel in base_files:
        text = clean_file(tree, rel)
        if text is None:
            die(f'{tree} has no {rel}')
        write(os.path.join(repo, rel), text)
    git('add', '-A')
    git('commit', '-q', '-m', 'base')
    commits = 0
    for p in patches:
        git('am', '-q', '--keep-cr', os.path.join(series, p))
        commits += 1

    tests_dir = os.path.join(root, 'mm', 'tests')
    kheader, stanzas = kconfig_stanzas(read(os.path.join(root, 'Kconfig.kunit')))
    fixture_syms = [s for s, prompt, _ in stanzas if not prompt]
    tests = [s for s, prompt, _ in stanzas if prompt]
    if len(fixture_syms) != 1 or not tests:
        die('Kconfig.kunit: expected one symbol without a prompt (the fixture\'s) and test symbols')
    paras = makefile_paragraphs(read(os.path.join(tests_dir, 'Makefile')))
    kunitconfig = read(os.path.join(tests_dir, '.kunitconfig')).splitlines()
    owner = {}
    for para in paras:
        sym = paragraph_symbol(para, tests)
        if sym:
            for objs in re.findall(r'\+=\s*(.*)', para):
                for o in objs.split():
                    owner[o[:-2] + '.c'] = sym
    names = sorted(n for n in os.listdir(tests_dir) if n not in ('Makefile', '.kunitconfig'))
    for n in owner:
        if n not in names:
            die(f'mm/tests/Makefile builds {n[:-2]}.o but there is no mm/tests/{n}')

    def stage(done):
        """The suite's files with the fixture and the symbols in DONE."""
        files = {}
        kc = kheader + ''.join(st for s, _, st in stanzas if s in fixture_syms or s in done)
        files['Kconfig.kunit'] = kc.rstrip('\n') + '\n'
        mk = [p for p in paras if paragraph_symbol(p, tests) in (None, *done)]
        files['mm/tests/Makefile'] = '\n\n'.join(mk) + '\n'
        kcfg = [ln for ln in kunitconfig
                if not any(ln == f'CONFIG_{s}=y' for s in tests if s not in done)]
        files['mm/tests/.kunitconfig'] = '\n'.join(kcfg) + '\n'
        for n in names:
            if owner.get(n) is None or owner[n] in done:
                files[f'mm/tests/{n}'] = read(os.path.join(tests_dir, n))
        return files

    def commit(files, subject, body):
        for rel, text in files.items():
            write(os.path.join(repo, rel), text)
        for f, lines in hooked:
            path = os.path.join(repo, f)
            text = read(path)
            if not text.endswith(lines):
                write(path, text + lines)
        maint = read(os.path.join(repo, 'MAINTAINERS'))
        write(os.path.join(repo, 'MAINTAINERS'), maintainers_with(maint, list(files)))
        git('add', '-A')
        msg = f'{subject}\n\n{body}\n\nSigned-off-by: {PLACEHOLDER_NAME} <{PLACEHOLDER_EMAIL}>\n'
        git('commit', '-q', '-F', '-', stdin=msg)

    fixture_stanza = next(st for s, _, st in stanzas if s == fixture_syms[0])
    fixture_files = [n for n in names if n not in owner]
    body = (help_text(fixture_stanza) + '\n\n'
            f'It is built when a test selects {fixture_syms[0]}, which no symbol does '
            'yet: the tests follow, one patch per group.  mm/tests/Makefile probes the '
            'tree\'s own headers for the interfaces that differ between the kernels the '
            'tests are built on (lrutest_compat.h); mm/tests/.kunitconfig holds what '
            'they need of the kernel\'s configuration.\n\n'
            'Files: ' + ', '.join(fixture_files) + '.')
    commit(stage(()), 'mm/tests: add the fixture of the LRU KUnit tests', wrap(body))
    commits += 1
    done = []
    for sym, prompt, st in stanzas:
        if not prompt:
            continue
        done.append(sym)
        files = [n for n in names if owner.get(n) == sym]
        body = (as_commit_text(help_text(st)) + '\n\n'
                f'{sym} is enabled in mm/tests/.kunitconfig.  Run the tests with:\n\n'
                '  ./tools/testing/kunit/kunit.py run --kunitconfig=mm/tests\n\n'
                'Files: ' + ', '.join(files) + '.')
        commit(stage(tuple(done)), f'mm/tests: add {prompt_of(st)}', wrap(body))
        commits += 1
    print(commits)


if __name__ == '__main__':
    main()
