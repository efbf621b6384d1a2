"""The `relref` command: build, lint, new, lock (and match, from the match engine)."""
import argparse
import sys
from pathlib import Path

from . import paths
from .records.problems import RecordErrors


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="relref", description="Reliability Error References")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the package and match engine versions and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    lint = sub.add_parser("lint", help="validate the records, write nothing")
    lint.add_argument("--records", type=Path, default=paths.RECORDS)
    lint.set_defaults(func=_lint)
    build = sub.add_parser("build", help="validate, generate pages and indexes, then build the site (mkdocs or Zensical, strict)")
    build.add_argument("--records", type=Path, default=paths.RECORDS)
    build.add_argument("--site-dir", type=Path, default=paths.ROOT / "site")
    build.add_argument("--generate-only", action="store_true",
                       help="write the docs folder and its flat mkdocs.yml, and stop before the site engine")
    _add_engine_option(build)
    _add_lock_options(build)
    build.add_argument("--no-lock", action="store_true", help="skip the URL lock check (for trial records)")
    build.add_argument("--update-lock", action="store_true", help="also add the site's new URLs to the URL lock")
    build.set_defaults(func=_build)
    lock = sub.add_parser("lock", help="build, then add every new published URL and anchor to the URL lock")
    lock.add_argument("--records", type=Path, default=paths.RECORDS)
    lock.add_argument("--site-dir", type=Path, default=paths.ROOT / "site")
    _add_engine_option(lock)
    _add_lock_options(lock)
    lock.set_defaults(func=_lock)
    migrate = sub.add_parser("migrate", help="rewrite records of an earlier format version to the current one, in place")
    migrate.add_argument("--records", type=Path, default=paths.RECORDS)
    migrate.set_defaults(func=_migrate)
    new = sub.add_parser("new", help="scaffold a record from a catalog title")
    new.add_argument("title")
    new.add_argument("--records", type=Path, default=paths.RECORDS)
    new.set_defaults(func=_new)
    _add_match_parser(sub)
    args = parser.parse_args(argv)
    if args.command is None:  # `relref` alone: what it can do, not an error about what is missing
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except ModuleNotFoundError as exc:  # installed without the `site` extra: only `match` works
        print(f"relref {args.command}: needs {exc.name}, which comes with the site extra: "
              "pip install 'reliability-error-references[site]'", file=sys.stderr)
        return 2
    except RecordErrors as errors:
        print(errors, file=sys.stderr)
        if args.command == "match":  # 1 means "no confident match": records it cannot read are input it cannot read
            print(f"relref match: {len(errors.problems)} problem(s) in the records; nothing was matched", file=sys.stderr)
            return 2
        print(f"relref: {len(errors.problems)} problem(s); nothing was written", file=sys.stderr)
        return 1


class _Version(argparse.Action):
    """--version, read only when asked: importlib.metadata costs a matching run tens of ms."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(_version())
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    from .match.engine import ENGINE_VERSION
    try:
        package = version("reliability-error-references")
    except PackageNotFoundError:  # run from a checkout that was never installed
        package = "(not installed)"
    return f"relref {package} (match engine {ENGINE_VERSION})"


def _lint(args) -> int:
    from .records.load import load_audits, load_records
    records = load_records(args.records)
    load_audits(records)  # the build reads each audit for its checked dates
    print(f"relref: {len(records)} records valid")
    return 0


def _build(args) -> int:
    from .site.build import build_site
    return build_site(args.records, args.site_dir, generate_only=args.generate_only,
                      lock=None if args.no_lock else args.lock, update_lock=args.update_lock, engine=args.engine)


def _lock(args) -> int:
    from .site.build import build_site
    return build_site(args.records, args.site_dir, lock=args.lock, update_lock=True, engine=args.engine)


def _add_engine_option(parser) -> None:
    parser.add_argument("--engine", choices=["mkdocs", "zensical"], default="mkdocs",
                        help="the site engine: mkdocs with mkdocs-material (default) or Zensical; both read the "
                             "same config and pages (see the Site engine page)")


def _add_lock_options(parser) -> None:
    from .site.urllock import LOCK
    parser.add_argument("--lock", type=Path, default=LOCK, help="the URL lock file (default: urls.lock)")


def _migrate(args) -> int:
    from .records.migrate import migrate_folder
    notes = migrate_folder(args.records)
    for note in notes:
        print(note)
    print(f"relref: {len(notes)} change(s); run relref lint")
    return 0


def _new(args) -> int:
    from .scaffold import scaffold
    path = scaffold(args.title, args.records)
    print(f"relref: wrote {path}; fill in every TODO, then run relref lint")
    return 0


def _add_match_parser(sub) -> None:
    from .match.cli import add_parser
    add_parser(sub)


if __name__ == "__main__":
    sys.exit(main())
