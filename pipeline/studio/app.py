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
from concurrent.futures.process import BrokenProcessPool
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
from pipeline.studio import drafts, estimates, jobs, listing, playing, previews, tasks
from pipeline.studio.sessions import COOKIE, Session, Sessions

QUICK_S = 120  # seconds (of wall time, and of CPU) a card image or preview may take
WARM_AFTER_S = 3.0  # seconds after its start the studio starts its worker processes (a change asks them sooner)
TASKS_PER_WORKER = 1000  # a pool worker is replaced after this many (a fresh one takes about 0.5 s to warm)
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
        self.batches: dict[tuple, tuple] = {}  # (game, version, lang, card id) -> the key of its batch in images
        self.previews = previews.Previews(self.quick, workers)  # the make-a-deck form's first card
        self.pages: dict[str, jinja2.Environment] = {}
        self.countries: asyncio.Future | None = None  # `region list`'s rows, read once
        self.world: asyncio.Future | None = None  # the regions page's map, drawn once
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
                # a message with %(fields)s is filled in by Jinja (`%`): one without has its own "%" doubled
                lambda message: gettext(lang, message) if "%" in message else gettext(lang, message).replace("%", "%%"),
                lambda one, other, n: plural_form(lang, plural_forms(lang, one, other), n),
                newstyle=True,
                pgettext=lambda context, message: gettext(lang, message, context),  # a word the studio alone uses
            )
            environment.filters["said"] = lambda message, **fields: listing.said(lang, message, **fields)
            environment.filters["duration"] = lambda seconds: estimates.duration(lang, seconds)
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

    def warm(self) -> ProcessPoolExecutor:
        """The pool of worker processes, started (and warmed: `tasks.warm`) before a request needs it."""
        if self.pool is None:
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=tasks.warm, max_tasks_per_child=TASKS_PER_WORKER
            )
            for _ in range(self.workers):
                self.pool.submit(tasks.warm)
        return self.pool

    async def quick(self, task, *args):
        """A task in the pool of worker processes, at most QUICK_S seconds of wall time and of CPU (a worker
        over it is ended, and the pool started again)."""
        pool = self.warm()
        future = pool.submit(tasks.bounded, QUICK_S, task, tasks.Where.here(), *args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), QUICK_S)
        except BrokenProcessPool as exc:
            if self.pool is pool:
                self.pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise GeodeckError("a card took too long to draw and was stopped; try again") from exc

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
            estimates=estimates.all_kinds(game, len(deck["cards"]), listing.services()),
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
        """The faces of the batch of cards `card` is in (the page's first cards together, the cards a game's
        page shows together, else the card alone), drawn once per version and language however many requests
        ask at once."""
        key = self.batches.get((name, version, lang, card))
        if key is None:
            ids = listing.card_ids_in_order(name, version)
            key = self.batch(name, version, lang, ids[:SHOWN_CARDS] if card in ids[:SHOWN_CARDS] else [card])
        try:
            return await asyncio.shield(self.images[key])
        except Exception:
            self.images.pop(key, None)  # asked again, drawn again
            self.batches = {card: batch for card, batch in self.batches.items() if batch != key}
            raise

    def batch(self, name: str, version: str, lang: str | None, cards: list[str]) -> tuple:
        """Start drawing `cards` together in one worker (one print), once: each card's image then waits for it."""
        key = (name, version, lang, tuple(cards))
        if key not in self.images:
            self.images[key] = asyncio.ensure_future(self.quick(tasks.cards, name, version, cards, lang))
            for card in cards:
                self.batches.setdefault((name, version, lang, card), key)
        return key

    async def diff(self, request: Request) -> Response:
        self.visitor(request)
        game, _version = listing.game(request.path_params["name"], None)
        old, new = (listing.version(game, request.query_params.get(k)) for k in ("old", "new"))
        return self.page(
            request, "diff.html.j2", game=game, review=listing.review(game, old, new, request.state.session.lang)
        )

    async def make(self, request: Request) -> Response:
        session = self.visitor(request)
        checked = (
            drafts.check(session.folder, lang=session.lang) if drafts.values(session.folder) else drafts.Checked({})
        )
        preview = self.previews.shown.get(session.key) if checked.ok else None
        images = [base64.b64encode(png).decode() for png in preview] if preview else []
        return self.page(
            request, "make.html.j2", checked=checked, preview=images, **self.form_choices(checked, session)
        )

    @staticmethod
    def form_choices(checked: drafts.Checked, session: Session) -> dict:
        """The form's choices, the categories' words in the deck's language (else the page's)."""
        chosen = checked.values.get("recipe.lang")
        return listing.form_choices(chosen if isinstance(chosen, str) and chosen in languages.codes() else session.lang)

    async def make_post(self, request: Request) -> Response:
        form = await self.posted(request)
        session: Session = request.state.session
        upload = form.pop("items.table", None)
        if isinstance(upload, bytes) and len(upload) > drafts.upload_cap():
            raise HTTPException(413)
        table = upload if isinstance(upload, bytes) else None
        outcome = await self.previews.change(
            session.key, session.folder, lambda: drafts.save(session.folder, form, table), session.lang
        )
        images = [base64.b64encode(png).decode() for png in outcome.faces] if outcome.faces else []
        return self.page(
            request,
            "make.html.j2",
            checked=outcome.checked,
            preview=images,
            **self.form_choices(outcome.checked, session),
        )

    async def publish(self, request: Request) -> Response:
        await self.posted(request)
        session: Session = request.state.session
        if not drafts.check(session.folder, lang=session.lang).ok:
            return RedirectResponse("/make", 303)
        return self.start(request, "publish", tasks.publish, session.folder, listing.PLAYCHECK_GAMES, None)

    async def print_post(self, request: Request) -> Response:
        form = await self.posted(request)
        game, version = listing.game(request.path_params["name"], request.path_params["version"])
        what, lang = form.get("what"), form.get("lang")
        lang = lang if lang in languages.codes() else None
        if what not in ("kit", "cards", *listing.services()):
            raise HTTPException(400, "no such print or export")
        estimate = estimates.seconds(game, what, len(listing.card_ids_in_order(game.name, version)))
        if what in ("kit", "cards"):
            options = listing.print_options(form, lang)
            task = tasks.kit if what == "kit" else tasks.sheets
            return self.start(request, what, task, game.name, version, options, estimate=estimate)
        return self.start(request, what, tasks.export, game.name, version, what, lang, estimate=estimate)

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

    def start(self, request: Request, kind: str, task, *args, estimate: float | None = None) -> Response:
        session: Session = request.state.session
        try:
            job = self.jobs.start(session.key, kind, task, tasks.Where.here(), *args, estimate=estimate)
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

    async def world_map(self) -> dict:
        if self.world is None:
            self.world = asyncio.ensure_future(self.quick(tasks.world_map))
        try:
            return await asyncio.shield(self.world)
        except Exception:
            self.world = None
            raise

    async def regions(self, request: Request) -> Response:
        self.visitor(request)
        countries, world = await asyncio.gather(self.countries_listed(), self.world_map())
        shapes = [(row, world["paths"][row["iso3"]]) for row in countries if row["iso3"] in world["paths"]]
        return self.page(
            request,
            "regions.html.j2",
            countries=countries,
            world=world,
            shapes=shapes,
            tiers=listing.TIERS,
            tier=listing.tier,
        )

    async def region(self, request: Request) -> Response:
        self.visitor(request)
        iso3 = request.path_params["iso3"]
        row = next((row for row in await self.countries_listed() if row["iso3"] == iso3), None)
        if row is None:
            raise HTTPException(404, f"{iso3!r} is no country of the regions page: it lists them")
        return self.page(request, "region.html.j2", row=row, tiers=listing.TIERS, tier=listing.tier)

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
        chosen = table.settings
        where = (chosen.definition.name, chosen.version, chosen.lang.code)
        new = [
            card for _place, cards in table.screen.cards for card, _name in cards if (*where, card) not in self.batches
        ]
        if new:  # the cards the page shows drawn together, as its images ask for them
            self.batch(*where, list(dict.fromkeys(new)))
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
        form = drafts.values(request.state.session.folder)
        buttons = listing.fix_buttons(job.fixes, form) if job.kind == "publish" else []
        return self.page(request, "job.html.j2", job=job, file=listing.downloadable(job.result), fixes=buttons)

    async def job_fix(self, request: Request) -> Response:
        """A refusal's fix made to the draft (the change the refusal carries), then the draft checked again; a
        gate's --accept: the draft published again with the reason given."""
        form = await self.posted(request)
        job = self.own_job(request)
        fix, _, change = str(form.get("change", "")).partition("-")
        if job.kind != "publish" or not (fix.isdigit() and change.isdigit()) or int(fix) >= len(job.fixes):
            raise HTTPException(404, "no such fix: publish the deck again to see its fixes")
        changes = job.fixes[int(fix)].changes
        if int(change) >= len(changes):
            raise HTTPException(404, "no such fix: publish the deck again to see its fixes")
        session: Session = request.state.session
        if changes[int(change)].action == "accept":
            reason = str(form.get("reason", "")).strip()
            if not reason or not drafts.check(session.folder, lang=session.lang).ok:
                return RedirectResponse(f"/jobs/{job.id}", 303)  # no reason given: the page asks again
            return self.start(request, "publish", tasks.publish, session.folder, listing.PLAYCHECK_GAMES, reason)
        chosen = changes[int(change)]
        await self.previews.change(
            session.key, session.folder, lambda: drafts.change(session.folder, chosen), session.lang
        )
        return RedirectResponse("/make", 303)

    async def job_state(self, request: Request) -> Response:
        job = self.own_job(request)
        file = listing.downloadable(job.result)
        result = job.result if isinstance(job.result, str) else (file.name if file else "")
        return JSONResponse(
            {
                "state": job.state,
                "step": job.step,
                "elapsed": round(job.elapsed),
                "result": result,
                "file": bool(file),
                "fixes": bool(job.fixes),
            }
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
        found = self.previews.shown.get(session.key)
        if found is None or request.path_params["side"] not in ("front", "back"):
            raise HTTPException(404)
        return Response(found[request.path_params["side"] == "back"], media_type="image/png")

    async def failed(self, request: Request, exc: Exception) -> Response:
        """An HTTP error or a stage's one-line message as a page (never a traceback)."""
        status, detail = (exc.status_code, exc.detail) if isinstance(exc, HTTPException) else (400, str(exc))
        if not hasattr(request.state, "session"):
            request.state.session = self.sessions.get(request.cookies.get(COOKIE))
        return self.page(request, "error.html.j2", status, status=status, detail=detail)


def create(access_token: str | None = None, workers: int = 2, warm: bool = False) -> Starlette:
    """The studio's application; `access_token`: asked for once per browser (a studio on a network); `warm`: its
    worker processes started with it (served), not at the first card asked for (tests)."""
    studio = Studio(access_token, workers)

    @asynccontextmanager
    async def lifespan(_app):
        if warm:  # after its first pages: the workers' start takes a core for a second or two
            asyncio.get_running_loop().call_later(WARM_AFTER_S, studio.warm)
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
        Route("/regions/{iso3}", studio.region),
        Route("/regions/{iso3}/build", studio.region_build, methods=["POST"]),
        Route("/play", studio.play),
        Route("/play", studio.play_post, methods=["POST"]),
        Route("/play/{table}", studio.table),
        Route("/play/{table}", studio.table_post, methods=["POST"]),
        Route("/play/{table}/record", studio.table_record),
        Route("/jobs/{job}", studio.job),
        Route("/jobs/{job}/state", studio.job_state),
        Route("/jobs/{job}/cancel", studio.job_cancel, methods=["POST"]),
        Route("/jobs/{job}/fix", studio.job_fix, methods=["POST"]),
        Route("/jobs/{job}/file", studio.job_file),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {HTTPException: studio.failed, GeodeckError: studio.failed}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.studio = studio
    return Capped(app, drafts.upload_cap())  # type: ignore[return-value]
