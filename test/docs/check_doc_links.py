#!/usr/bin/env python3
"""Checks every relative Markdown link in the repository's .md files.

  check_doc_links.py ROOT          check ROOT's .md files (exit 1 and one line per broken link)
  check_doc_links.py --self-test   check that broken links and anchors are found

A link [text](path#anchor) must name an existing file or directory relative to
the file it is in, and an #anchor must be one of the GitHub-style anchors of
the target's headings. Links inside code (fenced blocks, `spans`) are not
links; http(s) and mailto links are not checked (the CI has no network).
"""
import os
import re
import sys
import tempfile

LINK = re.compile(r'!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
FENCE = re.compile(r'^\s*(```|~~~)')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')


def prose_lines(text):
    """(line number, line) outside fenced code blocks, code spans blanked."""
    fence = None
    for n, line in enumerate(text.split('\n'), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield n, CODE_SPAN.sub(lambda c: ' ' * len(c.group(0)), line)


def github_anchor(heading):
    """The anchor GitHub gives a heading: its rendered text, lower case,
    punctuation dropped (letters, digits, '_', '-' and spaces kept), spaces as '-'."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # links: their text
    text = text.replace('`', '')
    text = re.sub(r'<[^>]+>', '', text)
    text = text.strip().lower()
    text = ''.join(c for c in text if c.isalnum() or c in '_- ')
    return text.replace(' ', '-')


def anchors_of(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        with open(path, encoding='utf-8') as f:
            text = f.read()
        fence = None
        for line in text.split('\n'):
            m = FENCE.match(line)
            if m:
                fence = m.group(1) if fence is None else (None if m.group(1) == fence else fence)
                continue
            h = re.match(r'^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$', line)
            if fence is None and h:
                base = github_anchor(h.group(1))
                k = seen.get(base, 0)
                seen[base] = k + 1
                found.add(base if k == 0 else f'{base}-{k}')
        found.update(re.findall(r'<a\s+(?:name|id)="([^"]+)"', text))
        cache[path] = found
    return cache[path]


def markdown_files(root):
    for d, dirs, files in os.walk(root):
        # Not ours to check: hidden folders, build trees, git worktrees' clutter.
        dirs[:] = sorted(x for x in dirs if not x.startswith('.') and not x.startswith('build')
                         and not os.path.exists(os.path.join(d, x, 'CMakeCache.txt')))
        for name in sorted(files):
            if name.endswith('.md'):
                yield os.path.join(d, name)


def check_file(path, root):
    errors = []
    with open(path, encoding='utf-8') as f:
        text = f.read()
    rel = os.path.relpath(path, root)
    for n, line in prose_lines(text):
        for m in LINK.finditer(line):
            target = m.group(1)
            if not target or re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):
                continue  # http:, https:, mailto:
            file_part, _, anchor = target.partition('#')
            dest = path if not file_part else os.path.normpath(
                os.path.join(os.path.dirname(path), file_part))
            if not os.path.exists(dest):
                errors.append(f'{rel}:{n}: link to {target}: {file_part} does not exist')
                continue
            if anchor and dest.endswith('.md') and os.path.isfile(dest):
                if anchor not in anchors_of(dest):
                    errors.append(f'{rel}:{n}: link to {target}: no heading with anchor #{anchor} in '
                                  f'{os.path.relpath(dest, root)}')
    return errors


def check_tree(root):
    errors, count = [], 0
    for path in markdown_files(root):
        count += 1
        errors += check_file(path, root)
    return count, errors


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'docs'))
        with open(os.path.join(root, 'docs', 'a.md'), 'w', encoding='utf-8') as f:
            f.write('# A page\n\n## R2D2 (`--algo r2d2`)\n\n## Notes\n\n## Notes\n')
        with open(os.path.join(root, 'README.md'), 'w', encoding='utf-8') as f:
            f.write('# Top\n\n'
                    '[good](docs/a.md) [good anchor](docs/a.md#r2d2---algo-r2d2) [dup](docs/a.md#notes-1)\n'
                    '[self](#top) [web](https://example.org/missing) [dir](docs/)\n'
                    '`[in code](missing.md)`\n```\n[in a block](missing.md)\n```\n'
                    '[bad file](docs/b.md)\n'
                    '[bad anchor](docs/a.md#r2d2)\n'
                    '[bad self](#bottom)\n')
        count, errors = check_tree(root)
        want = ['README.md:9:', 'README.md:10:', 'README.md:11:']
        got = [e.split(' ')[0] for e in errors]
        if count != 2 or got != want:
            print(f'self-test FAILED: {count} files, errors {errors}, wanted lines {want}')
            return 1
    print('self-test passed: 3 broken links found, none reported in code or for good links')
    return 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    count, errors = check_tree(root)
    for e in errors:
        print(e)
    print(f'{count} Markdown files, {len(errors)} broken links')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
