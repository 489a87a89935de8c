"""geodeck studio (docs/studio.md): the CLI's stages behind a local web page, on Starlette with Jinja2 templates
(templates/studio/, autoescaped, their words through the gettext catalogues) and uvicorn. `app.create` makes the
application, `server.run` serves it; `sessions` keeps each visitor's language, form token and draft apart;
`drafts` turns a form into a recipe the CLI reads; `tasks` is the work done in worker processes (`jobs`)."""
