"""The `shifu` command: serve, ask, token, demo, kb, eval and migrate.

Every subcommand builds its components from `current_settings()`, so SHIFU_DATA_DIR and
SHIFU_DATABASE_URL select the deployment for all of them alike.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from shifu.config import current_settings
from shifu.errors import ShifuError


def _cmd_migrate(_: argparse.Namespace) -> int:
    from shifu.store.migrate import upgrade

    upgrade(current_settings().sqlalchemy_url)
    print("数据库已迁移到最新版本。")
    return 0


def _cmd_demo_seed(_: argparse.Namespace) -> int:
    from shifu.demo.setup import seed_demo

    seed_demo(current_settings())
    print("演示数据已就绪（租户 demo）。")
    return 0


def _cmd_demo_up(args: argparse.Namespace) -> int:
    from shifu.demo.setup import bring_up_demo

    bring_up_demo(current_settings(), host=args.host, port=args.port, out=sys.stdout)
    return 0


def _cmd_token(args: argparse.Namespace) -> int:
    from shifu.demo.setup import demo_token

    print(demo_token(current_settings(), args.actor))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from shifu.api.app import create_app
    from shifu.audit.json_logs import configure_json_logging
    from shifu.demo.setup import demo_actor_tokens

    configure_json_logging()
    settings = current_settings()
    app = create_app(settings, demo_actors=lambda: demo_actor_tokens(settings))
    print(f"Shifu 正在运行：http://{args.host}:{args.port}/", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_config=None, access_log=False)
    return 0


def _cmd_ask(args: argparse.Namespace) -> int:
    from shifu.demo.setup import ask_as

    response = ask_as(current_settings(), args.actor, args.text, conversation_id=args.conversation)
    if args.json:
        print(response.model_dump_json(by_alias=True, indent=2))
    else:
        print(f"[{response.intent} · {response.status}] {response.answer}")
        for citation in response.citations:
            print(f"  依据：{citation.title} {citation.locator}")
        print(f"  会话：{response.conversation_id}（版本 {response.context_version}）")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="shifu", description="Shifu (师傅) grounded business agent")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("migrate", help="apply database migrations").set_defaults(func=_cmd_migrate)

    serve = sub.add_parser("serve", help="run the HTTP service")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=_cmd_serve)

    ask = sub.add_parser("ask", help="ask a question in-process as a demo actor")
    ask.add_argument("--as", dest="actor", required=True, help="employee, supervisor, candidate …")
    ask.add_argument("--conversation", default=None, help="conversation id to continue")
    ask.add_argument("--json", action="store_true", help="print the full AgentResponse")
    ask.add_argument("text")
    ask.set_defaults(func=_cmd_ask)

    token = sub.add_parser("token", help="print a demo token for an actor")
    token.add_argument("actor")
    token.set_defaults(func=_cmd_token)

    demo = sub.add_parser("demo", help="demo deployment")
    demo_sub = demo.add_subparsers(dest="demo_command", required=True)
    demo_sub.add_parser("seed", help="create the demo tenant, actors and their work").set_defaults(
        func=_cmd_demo_seed
    )
    up = demo_sub.add_parser("up", help="migrate, seed, ingest the demo corpus, print tokens")
    up.add_argument("--host", default="127.0.0.1")
    up.add_argument("--port", type=int, default=8000)
    up.set_defaults(func=_cmd_demo_up)

    from shifu.eval.commands import add_eval_commands
    from shifu.knowledge.commands import add_kb_commands

    add_kb_commands(sub)
    add_eval_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; deliberate errors print their Chinese message and exit 2."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ShifuError as exc:
        print(json.dumps({"code": exc.code, "message": exc.message}, ensure_ascii=False), file=sys.stderr)
        return 2
    except KeyError as exc:
        print(str(exc.args[0]) if exc.args else "unknown key", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
