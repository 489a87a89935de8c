"""The studio's routes (Starlette). Every name in a request (a game, a version, a card, a service, a
language, a job) is looked up among the known ones and never becomes a path; every form carries the session's
CSRF token; a request body is capped (`drafts.upload_cap`); pages are Jinja2 templates, autoescaped, their words
in the session's language."""

import asyncio
import base64
import multiprocessing
import secrets
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

import jinja2
import markupsafe
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pipeline import paths, text
from pipeline.errors import GeodeckError
from pipeline.i18n import registry as languages
from pipeline.i18n.catalogue import form as plural_form
from pipeline.i18n.catalogue import gettext, plural_forms
from pipeline.studio import drafts, jobs, listing, playing, tasks
from pipeline.studio.sessions import COOKIE, Session, Sessions

QUICK_S = 120  # seconds a card image or preview may take
SHOWN_CARDS = 8  # cards drawn on a deck's page (rendered together, in one worker)
TABLES = 3  # games a session plays at once: a fourth leaves the oldest
STATIC = Path(__file__).with_name("static")


class Capped:
    """ASGI middleware: a request body over `limit` bytes is refused with 413 before it is read whole."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await _too_large(send)
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise HTTPException(413)
            return message

        return await self.app(scope, counted, send)


async def _too_large(send) -> None:
    await send({"type": "http.response.start", "status": 413, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"413: the upload is larger than the studio takes"})


def _visible(value):
    """Every text from data with its control characters and bidi overrides shown as escapes (autoescape then
    escapes its markup); the templates' own markup (a macro's) as it is."""
    return text.shown(value) if isinstance(value, str) and not isinstance(value, markupsafe.Markup) else value


def _named_languages() -> dict[str, str]:
    """Each registered language's code and its own name ("français")."""
    return {code: languages.language(code).name for code in languages.codes()}


class Studio:
    def __init__(self, access_token: str | None = None, workers: int = 2):
        self.sessions = Sessions(access_token)
        self.jobs = jobs.Jobs()
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.images: dict[tuple, asyncio.Future] = {}  # (game, version, lang, card ids) -> their faces
        self.previews: dict[str, tuple[bytes, bytes]] = {}  # session -> the draft's first card
        self.pages: dict[str, jinja2.Environment] = {}
        self.countries: asyncio.Future | None = None  # `region list`'s rows, read once
        self.tables: dict[str, tuple[str, playing.Table]] = {}  # id -> (session, game played in the browser)

    # -- plumbing --------------------------------------------------------------------------------------------
    def environment(self, lang: str) -> jinja2.Environment:
        if lang not in self.pages:
            environment = jinja2.Environment(
                loader=jinja2.FileSystemLoader(paths.TEMPLATES_DIR / "studio"),
                autoescape=True,
                undefined=jinja2.StrictUndefined,
                extensions=["jinja2.ext.i18n"],
                finalize=_visible,
            )
            environment.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
                lambda message: gettext(lang, message).replace("%", "%%") if "%" not in message else message,
                lambda one, other, n: plural_form(lang, plural_forms(lang, one, other), n),
                newstyle=True,
                pgettext=lambda context, message: gettext(lang, message, context),  # a word the studio alone uses
            )
            environment.filters["said"] = lambda message, **fields: listing.said(lang, message, **fields)
            self.pages[lang] = environment
        return self.pages[lang]

    def visitor(self, request: Request) -> Session:
        session = self.sessions.get(request.cookies.get(COOKIE))
        if not self.sessions.admit(session, request.query_params.get("token")):
            raise HTTPException(403, "give the access token the studio printed: open the address it printed")
        request.state.session = session
        return session

    def page(self, request: Request, name: str, code: int = 200, **content) -> HTMLResponse:
        session: Session = request.state.session
        body = (
            self.environment(session.lang)
            .get_template(name)
            .render(session=session, languages=_named_languages(), path=request.url.path, **content)
        )
        response = HTMLResponse(body, code)
        response.set_cookie(COOKIE, session.key, httponly=True, samesite="strict")
        response.headers["Content-Security-Policy"] = "default-src 'self'; img-src 'self' data:; object-src 'none'"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    async def posted(self, request: Request) -> dict:
        """The form of a POST, its CSRF token checked; files as bytes."""
        session = self.visitor(request)
        async with request.form(max_files=1, max_fields=200, max_part_size=drafts.upload_cap()) as form:
            token = form.get("csrf")
            if not session.valid(token if isinstance(token, str) else None):
                raise HTTPException(403, "the form is out of date (its token is not this session's): reload the page")
            found: dict = {}
            for key, value in form.multi_items():
                if isinstance(value, UploadFile):
                    found[key] = await value.read(drafts.upload_cap() + 1)
                elif key in found and key.endswith("continents"):
                    found[key] = [*found[key], value]
                else:
                    found[key] = [value] if key.endswith("continents") else value
            return found

    async def quick(self, task, *args):
        """A task in the pool of worker processes, at most QUICK_S seconds."""
        if self.pool is None:
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(self.workers, mp_context=context, max_tasks_per_child=50)
        future = self.pool.submit(task, tasks.Where.here(), *args)
        return await asyncio.wait_for(asyncio.wrap_future(future), QUICK_S)

    def close(self) -> None:
        self.jobs.close()
        for _session, table in self.tables.values():
            table.leave()
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    # -- pages -----------------------------------------------------------------------------------------------
    async def home(self, request: Request) -> Response:
        self.visitor(request)
        return self.page(request, "home.html.j2", games=listing.games())

    async def language(self, request: Request) -> Response:
        form = await self.posted(request)
        if form.get("lang") in languages.codes():
            request.state.session.lang = form["lang"]
        back = form.get("back", "/")
        return RedirectResponse(
            back if isinstance(back, str) and back.startswith("/") and "//" not in back else "/", 303
        )

    async def game(self, request: Request) -> Response:
        self.visitor(request)
        game, version = listing.game(request.path_params["name"], request.query_params.get("version"))
        deck = listing.deck(game, version, request.state.session.lang)
        cards_lang = listing.card_language(request.query_params.get("lang"))
        return self.page(
            request,
            "game.html.j2",
            cards_lang=cards_lang,
            game=game,
            version=version,
            deck=deck,
            shown=SHOWN_CARDS,
            services=listing.services(),
            papers=listing.PAPERS,
            report=listing.report(game, version),
        )

    async def card(self, request: Request) -> Response:
        self.visitor(request)
        game, version = listing.game(request.path_params["name"], request.path_params["version"])
        card, side = request.path_params["card"], request.path_params["side"]
        if side not in ("front", "back") or card not in listing.card_ids_in_order(game.name, version):
            raise HTTPException(404)
        drawn = await self.drawn(game.name, version, listing.card_language(request.query_params.get("lang")), card)
        image = drawn[card][side == "back"]
        return Response(image, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})

    async def drawn(self, name: str, version: str, lang: str | None, card: str) -> dict[str, tuple[bytes, bytes]]:
        """The faces of the batch of cards `card` is in (the page's first cards together, else the card alone),
        drawn once per version and language however many requests ask at once."""
        ids = listing.card_ids_in_order(name, version)
        batch = ids[:SHOWN_CARDS] if card in ids[:SHOWN_CARDS] else [card]
        key = (name, version, lang, tuple(batch))
        if key not in self.images:
            self.images[key] = asyncio.ensure_future(self.quick(tasks.cards, name, version, batch, lang))
        try:
            return await asyncio.shield(self.images[key])
        except Exception:
            self.images.pop(key, None)  # asked again, drawn again
            raise

    async def diff(self, request: Request) -> Response:
        self.visitor(request)
        game, _version = listing.game(request.path_params["name"], None)
        old, new = (listing.version(game, request.query_params.get(k)) for k in ("old", "new"))
        return self.page(
            request, "diff.html.j2", game=game, review=listing.review(game, old, new, request.state.session.lang)
        )

    async def make(self, request: Request) -> Response:
        session = self.visitor(request)
        checked = drafts.check(session.folder, session.lang) if drafts.values(session.folder) else drafts.Checked({})
        preview = self.previews.get(session.key) if checked.ok else None
        images = [base64.b64encode(png).decode() for png in preview] if preview else []
        return self.page(request, "make.html.j2", checked=checked, preview=images, **listing.form_choices())

    async def make_post(self, request: Request) -> Response:
        form = await self.posted(request)
        session: Session = request.state.session
        upload = form.pop("items.table", None)
        if isinstance(upload, bytes) and len(upload) > drafts.upload_cap():
            raise HTTPException(413)
        drafts.save(session.folder, form, upload if isinstance(upload, bytes) else None)
        checked = drafts.check(session.folder, session.lang)
        self.previews.pop(session.key, None)
        if checked.ok:
            try:
                self.previews[session.key] = await self.quick(tasks.preview, session.folder)
            except GeodeckError as exc:  # a recipe error found when its cards are made (a joker's group …)
                for line in getattr(exc, "problems", [str(exc)]):
                    where, problem = drafts.placed(line, session.folder)
                    checked.problems.setdefault(where, []).append(problem)
                checked.ok = not hasattr(exc, "problems")  # else not drawable here, yet publishable (countries)
        preview = self.previews.get(session.key)
        images = [base64.b64encode(png).decode() for png in preview] if preview else []
        return self.page(request, "make.html.j2", checked=checked, preview=images, **listing.form_choices())

    async def publish(self, request: Request) -> Response:
        await self.posted(request)
        session: Session = request.state.session
        if not drafts.check(session.folder, session.lang).ok:
            return RedirectResponse("/make", 303)
        return self.start(request, "publish", tasks.publish, session.folder, listing.PLAYCHECK_GAMES)

    async def print_post(self, request: Request) -> Response:
        form = await self.posted(request)
        game, version = listing.game(request.path_params["name"], request.path_params["version"])
        what, lang = form.get("what"), form.get("lang")
        lang = lang if lang in languages.codes() else None
        if what in ("kit", "cards"):
            options = listing.print_options(form, lang)
            task = tasks.kit if what == "kit" else tasks.sheets
            return self.start(request, what, task, game.name, version, options)
        if what in listing.services():
            return self.start(request, what, tasks.export, game.name, version, what, lang)
        raise HTTPException(400, "no such print or export")

    async def playcheck(self, request: Request) -> Response:
        await self.posted(request)
        game, version = listing.game(request.path_params["name"], request.path_params["version"])
        lang = request.state.session.lang
        return self.start(request, "playcheck", tasks.playcheck, game.name, version, lang, tasks.PLAYCHECK_GAMES)

    async def plot(self, request: Request) -> Response:
        self.visitor(request)
        game, version = listing.game(request.path_params["name"], request.path_params["version"])
        name = request.path_params["plot"]
        if name not in listing.plots(game, version):
            raise HTTPException(404)
        return FileResponse(paths.OUTPUT_DIR / "reports" / game.name / version / name, media_type="image/png")

    async def recipe(self, request: Request) -> Response:
        await self.posted(request)
        game, _version = listing.game(request.path_params["name"], None)
        zipped = listing.recipe_zip(game, request.state.session.folder)
        return FileResponse(zipped, filename=zipped.name, media_type="application/zip")

    def start(self, request: Request, kind: str, task, *args) -> Response:
        session: Session = request.state.session
        try:
            job = self.jobs.start(session.key, kind, task, tasks.Where.here(), *args)
        except jobs.Busy as exc:
            raise HTTPException(503, str(exc)) from exc
        return RedirectResponse(f"/jobs/{job.id}", 303)

    async def countries_listed(self) -> list[dict]:
        if self.countries is None:
            self.countries = asyncio.ensure_future(self.quick(tasks.regions))
        try:
            return await asyncio.shield(self.countries)
        except Exception:
            self.countries = None
            raise

    async def regions(self, request: Request) -> Response:
        self.visitor(request)
        return self.page(request, "regions.html.j2", countries=await self.countries_listed())

    async def region_build(self, request: Request) -> Response:
        await self.posted(request)
        buildable = {row["iso3"] for row in await self.countries_listed() if row["verdict"] == "yes"}
        iso3 = request.path_params["iso3"]
        if iso3 not in buildable:
            raise HTTPException(
                404, f"{iso3!r} is no country a region deck can be built of: the regions page lists them"
            )
        self.countries = None  # its tier changes with the build
        return self.start(request, "region", tasks.region, iso3)

    async def play(self, request: Request) -> Response:
        self.visitor(request)
        return self.page(request, "play.html.j2", **listing.playable())

    async def play_post(self, request: Request) -> Response:
        form = await self.posted(request)
        session: Session = request.state.session
        settings = listing.table_settings(form, session.lang)
        for key in [k for k, (_owner, t) in self.tables.items() if t.idle_s > playing.ABANDONED_S or t.ended]:
            await run_in_threadpool(self.tables.pop(key)[1].leave)  # left, or its tab closed long ago
        own = [key for key, (owner, _table) in self.tables.items() if owner == session.key]
        for old in own[: max(0, len(own) - TABLES + 1)]:  # the oldest game left, its record kept
            await run_in_threadpool(self.tables.pop(old)[1].leave)
        table = playing.Table(settings)
        key = secrets.token_urlsafe(16)
        self.tables[key] = (session.key, table)
        await run_in_threadpool(table.settle)
        return RedirectResponse(f"/play/{key}", 303)

    def own_table(self, request: Request) -> playing.Table:
        session = self.visitor(request)
        owner, table = self.tables.get(request.path_params["table"], ("", None))
        if table is None or owner != session.key:
            raise HTTPException(404)
        table.seen = time.monotonic()
        return table

    async def table(self, request: Request) -> Response:
        table = self.own_table(request)
        return self.page(request, "table.html.j2", table=table, key=request.path_params["table"])

    async def table_post(self, request: Request) -> Response:
        form = await self.posted(request)
        table = self.own_table(request)
        answer = form.get("answer")
        await run_in_threadpool(table.answer, answer if isinstance(answer, str) else "")
        return RedirectResponse(f"/play/{request.path_params['table']}", 303)

    async def table_record(self, request: Request) -> Response:
        table = self.own_table(request)
        if not table.ended or not table.settings.record.is_file():
            raise HTTPException(404)
        return FileResponse(table.settings.record, filename=table.settings.record.name)

    async def job(self, request: Request) -> Response:
        job = self.own_job(request)
        return self.page(request, "job.html.j2", job=job, file=listing.downloadable(job.result))

    async def job_state(self, request: Request) -> Response:
        job = self.own_job(request)
        file = listing.downloadable(job.result)
        result = job.result if isinstance(job.result, str) else (file.name if file else "")
        return JSONResponse(
            {"state": job.state, "step": job.step, "elapsed": round(job.elapsed), "result": result, "file": bool(file)}
        )

    async def job_cancel(self, request: Request) -> Response:
        await self.posted(request)
        self.jobs.cancel(self.own_job(request))
        return RedirectResponse(f"/jobs/{request.path_params['job']}", 303)

    async def job_file(self, request: Request) -> Response:
        file = listing.downloadable(self.own_job(request).result)
        if file is None:
            raise HTTPException(404)
        return FileResponse(file, filename=file.name)

    def own_job(self, request: Request) -> jobs.Job:
        session = self.visitor(request)
        job = self.jobs.get(session.key, request.path_params["job"])
        if job is None:
            raise HTTPException(404)
        return job

    async def preview(self, request: Request) -> Response:
        session = self.visitor(request)
        found = self.previews.get(session.key)
        if found is None or request.path_params["side"] not in ("front", "back"):
            raise HTTPException(404)
        return Response(found[request.path_params["side"] == "back"], media_type="image/png")

    async def failed(self, request: Request, exc: Exception) -> Response:
        """An HTTP error or a stage's one-line message as a page (never a traceback)."""
        status, detail = (exc.status_code, exc.detail) if isinstance(exc, HTTPException) else (400, str(exc))
        if not hasattr(request.state, "session"):
            request.state.session = self.sessions.get(request.cookies.get(COOKIE))
        return self.page(request, "error.html.j2", status, status=status, detail=detail)


def create(access_token: str | None = None, workers: int = 2) -> Starlette:
    """The studio's application; `access_token`: asked for once per browser (a studio on a network)."""
    studio = Studio(access_token, workers)

    @asynccontextmanager
    async def lifespan(_app):
        yield
        studio.close()

    routes = [
        Route("/", studio.home),
        Route("/language", studio.language, methods=["POST"]),
        Route("/games/{name}", studio.game),
        Route("/games/{name}/diff", studio.diff),
        Route("/games/{name}/recipe", studio.recipe, methods=["POST"]),
        Route("/games/{name}/{version}/print", studio.print_post, methods=["POST"]),
        Route("/games/{name}/{version}/cards/{card}/{side}.png", studio.card),
        Route("/games/{name}/{version}/playcheck", studio.playcheck, methods=["POST"]),
        Route("/games/{name}/{version}/report/{plot}", studio.plot),
        Route("/make", studio.make),
        Route("/make", studio.make_post, methods=["POST"]),
        Route("/make/publish", studio.publish, methods=["POST"]),
        Route("/make/preview/{side}.png", studio.preview),
        Route("/regions", studio.regions),
        Route("/regions/{iso3}/build", studio.region_build, methods=["POST"]),
        Route("/play", studio.play),
        Route("/play", studio.play_post, methods=["POST"]),
        Route("/play/{table}", studio.table),
        Route("/play/{table}", studio.table_post, methods=["POST"]),
        Route("/play/{table}/record", studio.table_record),
        Route("/jobs/{job}", studio.job),
        Route("/jobs/{job}/state", studio.job_state),
        Route("/jobs/{job}/cancel", studio.job_cancel, methods=["POST"]),
        Route("/jobs/{job}/file", studio.job_file),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {HTTPException: studio.failed, GeodeckError: studio.failed}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.studio = studio
    return Capped(app, drafts.upload_cap())  # type: ignore[return-value]
