"""Types shared by two or more packages: frozen pydantic models, no logic, no I/O.

Split by concept: `common` (base model and enums), `context`, `entities`, `plan`,
`tool_args`, `evidence`, `decision`, `answer`, `messages`. Import from the submodule.
"""
