"""The FastAPI application: the JSON API, the websocket of each seat or spectator, and the
static front end.

Join links carry the seat's secret token in the URL fragment (``/game/ID#seat=0&token=...``),
which browsers never send: the page passes it in the ``X-Seat-Token`` header and as the
websocket's first message, so no request line, and so no access log, ever holds a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from kafeneio.bots import BOTS
from kafeneio.core import KafeneioError
from kafeneio.core.notation import integer_value
from kafeneio.core.options import RulesOptions
from kafeneio.core.rulebook import rulebook_of
from kafeneio.games import GAMES, get_game, load_record, title_of
from kafeneio.server import MAX_BOT_GAMES
from kafeneio.server.contract import Viewer, history_log, observation
from kafeneio.server.models import (
    MAX_BUDGET,
    ActionRequest,
    AnalysisView,
    Catalog,
    Created,
    CreateGame,
    ErrorBody,
    GameInfoOut,
    GameSummary,
    GameView,
    Hint,
    HintRequest,
    MoveChance,
    OptionInfo,
    ReplayStep,
    RuleOut,
    SeatLink,
    SeatRequest,
    name_problem,
)
from kafeneio.server.sessions import (
    ANALYSIS_BUDGET,
    MAX_REPLAYS_WAITING,
    MAX_UNSENT,
    ActionRefused,
    AnalysisJob,
    GameSession,
    Hub,
    Watcher,
    WordedHint,
    check_bot,
    game_result,
    is_idle,
    rematch_order,
    seat_infos,
    takes_budget,
)
from kafeneio.server.store import Listed, SeatSpec, Store, now
from kafeneio.sim.analysis import Budget

WEB = Path(str(resources.files("kafeneio.web")))
LOG = logging.getLogger("kafeneio.server")

STATUS_OF = {
    "no-game": 404,
    "unreadable": 500,
    "bad-token": 403,
    "spectator": 403,
    "not-your-turn": 403,
    "no-hints": 403,
    "hint-failed": 503,
    "hints-busy": 503,
    "replays-busy": 503,
    "too-long": 409,
    "bots-busy": 503,
    "busy": 503,
    "with-people": 403,
    "stale": 409,
    "game-over": 409,
    "abandoned": 409,
    "rematch-exists": 409,
    "not-over": 409,
    "illegal": 422,
    "bad-request": 422,
}
MAX_BODY = 64 * 1024
"""The largest request body the server reads: a new game's request is well under 2 KB; a body
of 20 MB was read and parsed whole before."""
TokenHeader = Annotated[str | None, Header(alias="X-Seat-Token")]
HINT_MOVES = 5
"""How many of the search's best moves a hint lists."""
MAX_IDS = 100
"""How many games one listing by `ids` may name."""
IDS_DESCRIPTION = (
    f"only these games (at most {MAX_IDS}); an id the server does not know is left out"
)


def create_app(
    db_url: str,
    bot_pause: float = 0.6,
    card_sets: dict[str, str] | None = None,
    hint_budget: Budget | None = None,
    analysis_budget: Budget = ANALYSIS_BUDGET,
    hosts: frozenset[str] | None = None,
    origins: frozenset[str] = frozenset(),
    max_bot_games: int = MAX_BOT_GAMES,
) -> FastAPI:
    """The app over the database at `db_url`; bots wait `bot_pause` seconds before moving; a
    hint thinks for `hint_budget` (default: the analysis module's), the analysis of a finished
    game for `analysis_budget` a decision; `hosts`, the host names its requests may name (any
    port; None: any host), see `HostCheck`; `origins`, the host names whose pages may open
    its websockets and send it requests besides its own (a proxy's, whose Host it may not be
    told)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url)
        hub = Hub(
            store,
            bot_pause=bot_pause,
            card_sets=card_sets,
            hint_budget=hint_budget,
            analysis_budget=analysis_budget,
            max_bot_games=max_bot_games,
        )
        hub.load_unfinished()
        hub.start_bots()
        app.state.hub = hub
        yield
        await hub.stop()
        store.close()

    # No /docs or /redoc: FastAPI's would load their scripts from a CDN. The schema is served.
    app = FastAPI(title="kafeneio", version="1", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.origins = origins
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    app.add_middleware(BodyLimit)
    app.add_middleware(HostCheck, hosts=hosts)
    app.add_middleware(OriginCheck, origins=origins)
    app.add_middleware(NoFraming)
    _add_error_handlers(app)
    _add_pages(app)
    _add_api(app)
    _add_websocket(app)
    return app


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
"""The names a server listening on this machine alone is reached by (`HostCheck`)."""


class HostCheck:
    """Refuses a request (400) or websocket (closed) whose Host header names another host than
    `hosts` (None: any). A server on 127.0.0.1 answers only to this machine's names: a web page
    elsewhere whose own name a DNS server then points at 127.0.0.1 (DNS rebinding) would
    otherwise read the games and make them as a page of this server does."""

    def __init__(self, app: Any, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.hosts is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
        if host_name(host) in self.hosts:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4400})
        else:
            why = {
                "error": "bad-host",
                "message": f"this server does not answer to {host!r} (a proxy's name is "
                "allowed by starting it with --allow-host NAME)",
            }
            await JSONResponse(why, status_code=400)(scope, receive, send)


def host_name(host: str) -> str:
    """A Host header's (or an allowed host's) name, without its port: ``localhost:8000`` ->
    ``localhost``, ``[::1]:8000`` -> ``[::1]``."""
    return host if host.endswith("]") else host.rsplit(":", 1)[0]


class HttpOnly:
    """An ASGI middleware of HTTP requests alone (`handle`): websockets and the app's lifespan
    pass it by."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.handle(scope, receive, send)

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        raise NotImplementedError


class NoFraming(HttpOnly):
    """No page or answer may be shown in a frame, not even of this server's own pages (none
    uses one): another site's page framing the lobby or a game could lead a click onto its
    buttons. And the rest of what a browser is told to hold its pages to: scripts, data and
    sockets of this server alone (the seat links kept in the browser's storage are read by
    no other's script), no guessing a JSON answer's type, no address sent on to another
    site (its own pages are told where a request came from)."""

    POLICY = (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    )
    HEADERS = (
        (b"x-frame-options", b"DENY"),
        (b"content-security-policy", POLICY.encode("ascii")),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
    )

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        async def framed(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.HEADERS]}
            await send(message)

        await self.app(scope, receive, framed)


class OriginCheck(HttpOnly):
    """Refuses (403 `bad-origin`) a request that would change something (any method but GET
    and HEAD) sent by a page of another site, which a browser says in its Origin header: a body
    of JSON is refused such a page already (it cannot set that type), but a POST with no body
    could start an analysis of hours or abandon a game of bots. A program sends no Origin, and
    is taken, as a page of this server or of an allowed host (`--allow-host`: a proxy's)."""

    def __init__(self, app: Any, origins: frozenset[str]) -> None:
        super().__init__(app)
        self.origins = origins

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        headers = dict(scope["headers"])
        origin = headers.get(b"origin")
        if scope["method"] in ("GET", "HEAD") or origin is None:
            await self.app(scope, receive, send)
            return
        host = headers.get(b"host", b"").decode("latin-1")
        # "null": a browser may say so of a page of this server too, and then says the request
        # is of its own site in a header no page can set
        own = origin == b"null" and headers.get(b"sec-fetch-site") == b"same-origin"
        if own or origin_allowed(origin.decode("latin-1"), host, self.origins):
            await self.app(scope, receive, send)
            return
        why = {"error": "bad-origin", "message": "a page of another site may not act here"}
        await JSONResponse(why, status_code=403)(scope, receive, send)


class BodyLimit(HttpOnly):
    """Refuses a request body longer than `MAX_BODY` with 413, by its Content-Length or, sent
    without one, as it comes in: the app is then told the client left, and what it would answer
    is dropped."""

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        length = dict(scope["headers"]).get(b"content-length", b"")
        if length.isdigit() and int(length) > MAX_BODY:
            await _too_large(scope, receive, send)
            return
        seen, refused = 0, False

        async def counted() -> Any:
            nonlocal seen, refused
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_BODY and not refused:
                refused = True
                await _too_large(scope, receive, send)
            return {"type": "http.disconnect"} if refused else message

        async def unless_refused(message: Any) -> None:
            if not refused:
                await send(message)

        with contextlib.suppress(ClientDisconnect):
            await self.app(scope, counted, unless_refused)


async def _too_large(scope: Any, receive: Any, send: Any) -> None:
    message = f"the request body is larger than the {MAX_BODY // 1024} KB the server reads"
    response = JSONResponse({"error": "too-large", "message": message}, status_code=413)
    await response(scope, receive, send)


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ActionRefused)
    async def refused(request: Request, err: ActionRefused) -> JSONResponse:
        body: dict[str, Any] = {"error": err.code, "message": str(err)}
        if err.code == "stale":
            # A stale client gets the whole current view back, to resynchronise at once.
            hub = hub_of(request)
            session = hub.get(request.path_params["game_id"])
            token = request.headers.get("X-Seat-Token")
            body["view"] = hub.view(session, session.seat_of(token), token)
        return JSONResponse(body, status_code=STATUS_OF.get(err.code, 400))

    @app.exception_handler(KafeneioError)
    async def kafeneio_error(request: Request, err: KafeneioError) -> JSONResponse:
        return JSONResponse({"error": "bad-request", "message": str(err)}, status_code=422)

    @app.exception_handler(OperationalError)
    async def storage_error(request: Request, err: OperationalError) -> JSONResponse:
        """The database refused (its disk full, its file locked or gone): said in the API's
        shape of errors, and in one line of the log, not a page of traceback a request."""
        where = f"{getattr(request, 'method', 'WEBSOCKET')} {request.url.path}"
        return JSONResponse(storage_failed(where, err), status_code=503)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> Response:
        """Starlette's own refusals (an address nothing answers, a method an address does not
        take, a body it cannot read) in the API's shape of errors; an address that is no page,
        as a page that says so (a person mistyped it)."""
        path = request.url.path
        if err.status_code == 404 and not path.startswith(("/api/", "/static/")):
            return HTMLResponse(_no_such_page(path), status_code=404)
        known = HTTP_ERRORS.get(err.status_code)
        detail = _lowered(str(err.detail))
        # only the templates are formatted: a detail may hold braces of its own
        code, words = (
            (known[0], known[1].format(method=request.method, path=path, detail=detail))
            if known
            else ("http-error", str(err.detail))
        )
        body = {"error": code, "message": words}
        return JSONResponse(body, status_code=err.status_code, headers=err.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        problems = "; ".join(_problem(error) for error in err.errors())
        return JSONResponse({"error": "bad-request", "message": problems}, status_code=422)


BODY = ("body",)


def _problem(error: Any) -> str:
    """One of pydantic's complaints about a request, as a person reads it: a body that is not
    JSON, or not an object, is said so, where pydantic names a place in it ("1: JSON decode
    error") or a model's attributes."""
    place, kind = tuple(error["loc"]), error["type"]
    if kind == "json_invalid":
        reason = error.get("ctx", {}).get("error", "it does not parse")
        return f"the request's body is not JSON: {_lowered(reason)} at character {place[-1]}"
    if place == BODY and kind in ("missing", "model_attributes_type", "dict_type"):
        return "the request's body must be a JSON object, sent as application/json"
    return f"{_field_name(place[1:])}: {_lowered(error['msg'])}"


HTTP_ERRORS = {
    400: ("bad-request", "{detail}"),
    404: ("not-found", "nothing answers at {path}"),
    405: ("method-not-allowed", "{path} does not take {method}"),
}
"""The API's error code and words for each of Starlette's own refusals."""


def _field_name(place: Sequence[object]) -> str:
    """Where a request's field is, as a person names it: ``seats.1.budget`` is "seat 2's
    budget" (seats are counted from 1 on every page)."""
    words: list[str] = []
    for index, part in enumerate(place):
        if isinstance(part, int) and index and place[index - 1] == "seats":
            words[-1] = f"seat {part + 1}'s"
        else:
            words.append(str(part).replace("_", " "))
    return " ".join(words) or "the request"


def _lowered(message: str) -> str:
    return message[:1].lower() + message[1:]


def _add_pages(app: FastAPI) -> None:
    # HEAD too: an uptime monitor asks with it, and read 405 as the server down
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(WEB / "game.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return FileResponse(WEB / "replay.html")

    @app.get("/rules/{game}", include_in_schema=False, response_model=None)
    async def rules_page(game: str) -> FileResponse | HTMLResponse:
        if game not in GAMES:
            return HTMLResponse(_no_such_game_page(game), status_code=404)
        return FileResponse(WEB / "rules.html")


def _no_such_game_page(game: str) -> str:
    """The rules page's answer for a game the server does not have: it says so, and links the
    rules of the games it has."""
    links = ", ".join(
        f'<a href="/rules/{name}">{html.escape(title_of(name))}</a>' for name in sorted(GAMES)
    )
    said = f'There is no game "{html.escape(game)}" here. The rules this server has: {links}.'
    return _message_page("No such game", "Rules", said)


def _no_such_page(path: str) -> str:
    """The answer for an address that is no page: it says so, and leads to the lobby."""
    said = (
        f'There is no page "{html.escape(path)}" here: the games are in <a href="/">the lobby</a>.'
    )
    return _message_page("No such page", "", said)


def _message_page(title: str, section: str, message: str) -> str:
    """A page of the site that only says `message` (HTML, escaped by the caller)."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title} · kafeneio</title>"
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="/static/style.css"></head>'
        f'<body><header class="top"><a href="/">kafeneio</a><span class="sub">{section}</span>'
        f'</header><main><div class="message error" role="alert">{message}</div></main>'
        "</body></html>"
    )


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (403, 404, 409, 422)
}


def _add_api(app: FastAPI) -> None:
    @app.get("/api/catalog", response_model=Catalog)
    async def catalog(request: Request) -> Catalog:
        """The games with every rules option, the card sets and the bots; the bounds of a
        bot's budget and of a listing by ids."""
        card_sets = sorted(hub_of(request).card_sets)
        return Catalog(
            games=[_game_info(name, card_sets) for name in sorted(GAMES)],
            bots=sorted(BOTS),
            budget_bots=sorted(name for name in BOTS if takes_budget(name)),
            max_budget=MAX_BUDGET,
            max_ids=MAX_IDS,
        )

    @app.get("/api/rules/{game}", response_model=list[RuleOut], responses=ERRORS)
    async def rules(game: str) -> list[RuleOut]:
        """The game's rules reference, one entry per rule id: the rule a log line or a refusal
        cites, for a player to read (as the terminal's ``rule`` command)."""
        if game not in GAMES:
            raise ActionRefused("no-game", f"there is no game {game!r}: {', '.join(sorted(GAMES))}")
        book = rulebook_of(get_game(game))
        return [RuleOut(id=rule.id, section=rule.section, text=rule.text) for rule in book]

    @app.get("/api/cafe/board")
    async def cafe_board() -> Any:
        """Café International's board data: tables, chairs and the bar, placed on a grid."""
        board = resources.files("kafeneio.games.cafe").joinpath("board.json")
        return json.loads(board.read_text(encoding="utf-8"))

    @app.get("/api/games", response_model=list[GameSummary], responses=ERRORS)
    async def list_games(
        request: Request,
        status: Literal["open", "running", "finished", "abandoned"] | None = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
        ids: Annotated[list[str] | None, Query(description=IDS_DESCRIPTION)] = None,
    ) -> list[GameSummary]:
        """The newest games: `status` open (a seat not yet taken), running, finished or abandoned
        (left before the end by its player, against bots); each says who is to move, when it
        was last moved in and whether it is idle. With `ids`, only those of these games the
        server knows (the lobby's "Your games": the games whose seat links a browser keeps)."""
        if ids is not None and len(ids) > MAX_IDS:
            raise ActionRefused("bad-request", f"ids: at most {MAX_IDS} games at a time")
        hub = hub_of(request)
        # read on a thread: with hundreds of games kept the query takes a tenth of a second,
        # which the event loop would make every game's moves wait
        found = await asyncio.to_thread(hub.store.listing, status, limit, ids)
        at = now()
        return [_summary(hub, listed, at) for listed in found]

    @app.post("/api/games", response_model=Created, status_code=201, responses=ERRORS)
    async def create_game(body: CreateGame, request: Request) -> Created:
        """A new game. The response holds each human seat's private join link, once."""
        hub = hub_of(request)
        options = dict(body.options)
        if "cards_dir" in options:
            raise ActionRefused("bad-request", "choose the cards with card_set, not cards_dir")
        if body.card_set is not None:
            if body.game != "souvlaki" or body.card_set not in hub.card_sets:
                raise ActionRefused("bad-request", f"there is no card set {body.card_set!r}")
            options["cards_dir"] = hub.card_sets[body.card_set]
        seats = [_seat_spec(index, seat) for index, seat in enumerate(body.seats)]
        session, tokens = await hub.create(get_game(body.game, options), seats)
        return _created(session, tokens)

    @app.get("/api/games/{game_id}", response_model=GameView, responses=ERRORS)
    async def get_view(game_id: str, request: Request, x_seat_token: TokenHeader = None) -> Any:
        """The game as this seat (its token in X-Seat-Token) or a spectator sees it."""
        hub = hub_of(request)
        session = hub.get(game_id)
        return hub.view(session, hub.join(session, x_seat_token), x_seat_token)

    @app.post("/api/games/{game_id}/actions", response_model=GameView, responses=ERRORS)
    async def post_action(
        game_id: str, body: ActionRequest, request: Request, x_seat_token: TokenHeader = None
    ) -> Any:
        """Play an action for the seat of the token. Refused (changing nothing) if out of turn,
        stale (the answer then holds the current view) or illegal (the answer says why)."""
        hub = hub_of(request)
        session = hub.get(game_id)
        seat = hub.join(session, x_seat_token)
        await hub.act(session, seat, body.ply, body.action)
        return hub.view(session, seat, x_seat_token)

    @app.post("/api/games/{game_id}/abandon", response_model=GameView, responses=ERRORS)
    async def abandon(game_id: str, request: Request, x_seat_token: TokenHeader = None) -> Any:
        """Leave a game against bots before its end, for the seat of the token: the game is
        kept as it stands and played no more. Refused in a game with other people in it."""
        hub = hub_of(request)
        session = hub.get(game_id)
        seat = hub.join(session, x_seat_token)
        await hub.abandon(session, seat)
        return hub.view(session, seat, x_seat_token)

    @app.post("/api/games/{game_id}/hint", response_model=Hint, responses=ERRORS)
    async def post_hint(
        game_id: str, body: HintRequest, request: Request, x_seat_token: TokenHeader = None
    ) -> Hint:
        """The search bot's suggestion for the seat of the token, to move at `ply`, from that
        seat's own information (games against bots only). Asked again, the same answer."""
        hub = hub_of(request)
        session = hub.get(game_id)
        seat = hub.join(session, x_seat_token)
        return _hint(body.ply, await hub.hint(session, seat, body.ply))

    @app.get("/api/games/{game_id}/hint", response_model=Hint | None, responses=ERRORS)
    async def get_hint(
        game_id: str,
        request: Request,
        ply: Annotated[int, Query(ge=0)],
        x_seat_token: TokenHeader = None,
    ) -> Hint | None:
        """The hint the seat of the token was given at `ply`, to show again (a page reloaded),
        or null if none was: never searched here. Refused as asking for a hint is."""
        hub = hub_of(request)
        session = hub.get(game_id)
        kept = hub.kept_hint(session, hub.join(session, x_seat_token), ply)
        return _hint(ply, kept) if kept is not None else None

    @app.post("/api/games/{game_id}/analysis", response_model=AnalysisView, responses=ERRORS)
    async def start_analysis(game_id: str, request: Request) -> AnalysisView:
        """Analyse a game over or abandoned in the background (once: asked again, where it
        stands)."""
        hub = hub_of(request)
        return _analysis_view(hub.analyse(hub.get(game_id)))

    @app.get("/api/games/{game_id}/analysis", response_model=AnalysisView, responses=ERRORS)
    async def get_analysis(game_id: str, request: Request) -> AnalysisView:
        """The analysis of a game over or abandoned: not asked for yet, under way, or done."""
        hub = hub_of(request)
        return _analysis_view(hub.analysis_of(hub.get(game_id)))

    @app.get("/api/games/{game_id}/record", responses=ERRORS)
    async def record(game_id: str, request: Request, x_seat_token: TokenHeader = None) -> Any:
        """The full record once the game is over or abandoned; before, this viewer's own view
        of it."""
        hub = hub_of(request)
        session = hub.get(game_id)
        viewer = hub.join(session, x_seat_token)
        body = hub.full_record(session) if session.ended else hub.own_record(session, viewer)
        headers = {"Content-Disposition": f'attachment; filename="{session.id}.record.json"'}
        return JSONResponse(body, headers=headers)

    @app.get("/api/games/{game_id}/replay", response_model=ReplayStep, responses=ERRORS)
    async def replay_step(
        game_id: str,
        request: Request,
        ply: Annotated[int, Query(ge=0)] = 0,
        viewer: Annotated[int | None, Query(ge=0, le=3)] = None,
    ) -> ReplayStep:
        """A game over or abandoned at move `ply`, as `viewer` (a seat, or none: the table)
        saw it."""
        hub = hub_of(request)
        session = hub.get(game_id)
        if not session.ended:
            raise ActionRefused("not-over", "a game can be replayed once it is over (or abandoned)")
        # replayed from its start, on a thread of its own: on the loop, a long game's replay
        # (half a second for 12,000 moves) held every game and socket of the server
        if hub.replays_waiting >= MAX_REPLAYS_WAITING:
            raise ActionRefused(
                "replays-busy",
                f"the server is working out {hub.replays_waiting} replay positions: ask again "
                "in a few seconds",
            )
        loop = asyncio.get_running_loop()
        hub.replays_waiting += 1
        try:
            return await loop.run_in_executor(hub.replayer, _replay_step, session, ply, viewer)
        finally:
            hub.replays_waiting -= 1

    @app.post("/api/games/{game_id}/rematch", response_model=Created, responses=ERRORS)
    async def rematch(game_id: str, request: Request, x_seat_token: TokenHeader = None) -> Created:
        """A new game with the same people and options, each moved one seat on (P2 becomes P1,
        P1 the last), so that another starts. A game with people in it takes a player's token;
        each connected player is sent their own new link, and each person's link to this game
        opens their seat of the rematch too. The answer holds the asker's own link alone: the
        others' would let one player act for another (they have theirs: sent to their page, and
        their old link)."""
        hub = hub_of(request)
        session = hub.get(game_id)
        asker = session.seat_of(x_seat_token)
        if asker is None and not session.of_bots_alone():
            raise ActionRefused("bad-token", "only a player of this game may ask for a rematch")
        new, tokens = await hub.rematch(session)
        previous = rematch_order(new.stored.players)
        own = {seat: token for seat, token in tokens.items() if previous[seat] == asker}
        return _created(new, own, previous)


def _seat_spec(index: int, seat: SeatRequest) -> SeatSpec:
    """The seat a new game's request asks for, checked: a bot one of the server's, a budget
    only for a bot that searches (another would ignore it, and the page would show it), a name
    without spaces around it, or the seat's own when it has none, and no character in it that
    would change how the other players see it (`name_problem`)."""
    name = (seat.name or "").strip()
    problem = name_problem(name) if name else None
    if problem is not None:
        raise ActionRefused("bad-request", f"seat {index + 1}'s name {problem}")
    if seat.kind == "human":
        extra = [field for field in ("bot", "budget") if getattr(seat, field) is not None]
        if extra:  # said, not dropped: the asker meant something by it
            given = " and ".join(f"a {field}" for field in extra)
            are = "is" if len(extra) == 1 else "are"
            raise ActionRefused(
                "bad-request", f"seat {index + 1} is a person: {given} {are} for a bot's seat"
            )
        return SeatSpec(kind="human", name=name or f"Player {index + 1}")
    if seat.bot is None:
        bots = ", ".join(sorted(BOTS))
        raise ActionRefused("bad-request", f"seat {index + 1} is a bot: say which ({bots})")
    check_bot(index, seat.bot)
    if seat.budget is not None and not takes_budget(seat.bot):
        searching = ", ".join(sorted(name for name in BOTS if takes_budget(name)))
        why = f"the {seat.bot} bot takes none (those that do: {searching})"
        raise ActionRefused("bad-request", f"seat {index + 1}'s budget: {why}")
    return SeatSpec(kind="bot", name=name or seat.bot, bot=seat.bot, budget=seat.budget)


def _add_websocket(app: FastAPI) -> None:
    @app.websocket("/ws/games/{game_id}")
    async def live(websocket: WebSocket, game_id: str) -> None:
        """First message ``{"type": "hello", "token": ...}`` (no token: a spectator); then the
        server sends each new view, and the client may send
        ``{"type": "action", "ply": N, "action": "..."}``. A page of another site is refused
        (its Origin is not this server's): a browser lets any page open a websocket anywhere."""
        if not _same_origin(websocket):
            await websocket.close(code=4403)  # before the handshake: answered 403
            return
        await websocket.accept()
        hub = hub_of(websocket)
        try:
            token = _hello_token(await _next_text(websocket))
            session = hub.get(game_id)
            viewer = hub.join(session, token)
            hub.open_seat(session, viewer)  # the seat's page is open: its person is here
        except ActionRefused as err:
            await websocket.send_json({"type": "error", "error": err.code, "message": str(err)})
            await websocket.close(code=4403)
            return
        except OperationalError as err:  # (a seat opened is written)
            failed = storage_failed(f"the opening of game {game_id}", err)
            await websocket.send_json({"type": "error", **failed})
            await websocket.close(code=1011)  # the server's error
            return
        except WebSocketDisconnect:
            return
        watcher = Watcher(viewer, token)
        session.watchers.add(watcher)
        hub.broadcast(session)  # everyone sees who is connected; this watcher gets its view
        sender = asyncio.get_running_loop().create_task(_send_loop(websocket, watcher))
        try:
            while not watcher.overrun:
                await _handle(hub, session, watcher, _parsed(await _next_text(websocket)))
            await websocket.close(code=POLICY_VIOLATION, reason=UNREAD)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            session.watchers.discard(watcher)
            sender.cancel()
            hub.broadcast(session)


def _same_origin(websocket: WebSocket) -> bool:
    """Whether a websocket was opened by a page of this server, or by no page (a program,
    which sends no Origin): `origin_allowed`."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return origin_allowed(origin, host, websocket.app.state.origins)


def origin_allowed(origin: str, host: str, allowed: frozenset[str]) -> bool:
    """Whether a page of `origin` is this server's: its host and port are the `host` asked
    for, or its host is one the server was told to allow (`--allow-host`: a proxy's, which may
    pass on another Host)."""
    try:
        parts = urlsplit(origin)
    except ValueError:  # no address at all ("http://[::1")
        return False
    netloc = parts.netloc.lower()
    # an allowed name as given, its port too (none: the scheme's own), on http or https alone
    if parts.scheme in ("http", "https") and netloc in allowed:
        return True
    return netloc == host.lower()


POLICY_VIOLATION = 1008
"""The websocket close code of a client that breaks the protocol's rules (RFC 6455)."""
UNREAD = f"more than {MAX_UNSENT} messages unread: read the server's answers"
"""Why a client whose answers pile up unread is let go (`Watcher.overrun`)."""


async def _send_loop(websocket: WebSocket, watcher: Watcher) -> None:
    with contextlib.suppress(Exception):
        while True:
            for message in await watcher.next_messages():
                await websocket.send_json(message)


async def _next_text(websocket: WebSocket) -> str | None:
    """The client's next message; None for a binary one, which no message of ours is."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text: str | None = message.get("text")
    return text


def _parsed(text: str | None) -> Any:
    """A client's message, or None when it is not JSON text (answered as an unknown message)."""
    try:
        return json.loads(text) if text is not None else None
    except (ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
        return None


HELLO = 'the first message must be {"type": "hello", "token": ...} (no token: a spectator)'


def _hello_token(text: str | None) -> str | None:
    """The seat token a websocket's first message gives (None: a spectator's); a first message
    that is no hello, or whose token is not text, is refused, saying so."""
    hello = _parsed(text)
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        raise ActionRefused("bad-request", HELLO)
    token = hello.get("token")
    if token is not None and not isinstance(token, str):
        raise ActionRefused("bad-request", "the hello's token must be text: the seat link's")
    return token


STORAGE_MESSAGE = "the server cannot use its database now (is its disk full?): try again later"


def storage_failed(where: str, err: OperationalError) -> dict[str, str]:
    """The database refused `where`'s write: one line in the log, and the error in the API's
    shape (`storage`), for an HTTP answer or a websocket message alike."""
    LOG.error("the database refused %s: %s", where, err.orig)
    return {"error": "storage", "message": STORAGE_MESSAGE}


async def _handle(hub: Hub, session: GameSession, watcher: Watcher, message: Any) -> None:
    if not isinstance(message, dict) or message.get("type") != "action":
        watcher.push({"type": "error", "error": "bad-request", "message": "unknown message"})
        return
    ply, text = integer_value(message.get("ply")), message.get("action")
    try:
        if ply is None or ply < 0 or not isinstance(text, str):  # JSON's true is no move 1
            raise ActionRefused(
                "bad-request", "an action message needs ply (a whole number >= 0) and action"
            )
        await hub.act(session, watcher.viewer, ply, text)
    except ActionRefused as err:
        watcher.push({"type": "error", "error": err.code, "message": str(err)})
        if err.code == "stale":
            watcher.push_view(hub.view(session, watcher.viewer, watcher.token))
    except OperationalError as err:  # said, with the view: the move not taken (or taken, and
        # chance's draw after it not, which the bots' turn-taker draws once it can write)
        watcher.push({"type": "error", **storage_failed(f"a move of game {session.id}", err)})
        watcher.push_view(hub.view(session, watcher.viewer, watcher.token))


def _game_info(name: str, card_sets: list[str]) -> GameInfoOut:
    game = get_game(name)
    options = game.options
    return GameInfoOut(
        name=name,
        title=game.info.title,
        min_players=game.info.min_players,
        max_players=game.info.max_players,
        options=[
            _option_info(type(options), key, value)
            for key, value in options.to_dict().items()
            if key != "cards_dir"
        ],
        card_sets=card_sets if name == "souvlaki" else [],
    )


def _option_info(kind: type[RulesOptions], name: str, default: Any) -> OptionInfo:
    described = {"name": name, "default": default, "description": kind.DESCRIPTIONS.get(name, "")}
    if name in kind.CHOICES:
        return OptionInfo(**described, type="choice", choices=list(kind.CHOICES[name]))
    if isinstance(default, bool):
        return OptionInfo(**described, type="bool")
    if isinstance(default, int):
        least, most = kind.BOUNDS.get(name, (0, None))
        return OptionInfo(**described, type="int", min=least, max=most)
    if isinstance(default, list):
        return OptionInfo(**described, type="ints")
    return OptionInfo(**described, type="text")


def _summary(hub: Hub, listed: Listed, at: datetime) -> GameSummary:
    stored, last_move = listed.game, listed.last_move
    live = hub.sessions.get(stored.id)
    seats = hub.seats(live) if live is not None else seat_infos(stored.seats, lambda seat: False)
    active = last_move or stored.created  # an action written before times were kept: the start
    return GameSummary(
        id=stored.id,
        game=stored.game,
        title=title_of(stored.game),
        status=stored.status,
        ply=listed.plies,
        seats=seats,  # type: ignore[arg-type]  # validated by pydantic
        created=stored.created.isoformat(timespec="seconds"),
        last_move=last_move.isoformat(timespec="seconds") if last_move else None,
        idle=is_idle(stored.status, active, seats, at),
        to_move=live.to_move() if live is not None else None,
        rematch=stored.rematch,
    )


def _created(
    session: GameSession, tokens: dict[int, str], previous: list[int] | None = None
) -> Created:
    """The links of a new game; of a rematch, with each person's seat before (`previous`)."""
    return Created(
        id=session.id,
        spectator=f"/game/{session.id}",
        links=[
            SeatLink(
                seat=seat,
                name=session.stored.seats[seat].name,
                path=f"/game/{session.id}#seat={seat}&token={token}",
                previous_seat=previous[seat] if previous is not None else None,
            )
            for seat, token in sorted(tokens.items())
        ],
    )


def _hint(ply: int, answer: WordedHint) -> Hint:
    analysis, words = answer.analysis, answer.words
    return Hint(
        ply=ply,
        player=analysis.player,
        best=analysis.best.notation,
        best_words=words[analysis.best.code],
        then=analysis.then.notation if analysis.then is not None else None,
        then_words=answer.then_words,
        win_chance=round(analysis.win_chance, 4),
        moves=[
            MoveChance(
                notation=entry.action.notation,
                words=words[entry.action.code],
                win_chance=round(entry.win_chance, 4),
                visits=entry.visits,
            )
            for entry in analysis.actions[:HINT_MOVES]
        ],
        iterations=analysis.iterations,
        seconds=round(analysis.seconds, 3),
    )


def _analysis_view(job: AnalysisJob | None) -> AnalysisView:
    if job is None:
        return AnalysisView(status="none", done=0, total=0, analysis=None)
    return AnalysisView(
        status=job.status, done=job.done, total=job.total, analysis=job.result, message=job.failed
    )


def _replay_step(session: GameSession, ply: int, viewer: Viewer) -> ReplayStep:
    total = session.ply
    ply = min(ply, total)
    if viewer is not None and viewer >= session.stored.players:
        raise ActionRefused("bad-request", f"there is no seat {viewer}")
    state = load_record({**session.stored.record(), "actions": session.stored.actions[:ply]})
    final = session.state
    return ReplayStep(
        ply=ply,
        total=total,
        status=session.status(),
        viewer=viewer,
        observation=observation(state, viewer),
        log=history_log(state, viewer, over=session.ended),  # type: ignore[arg-type]
        result=game_result(session) if final.is_terminal() else None,  # type: ignore[arg-type]
    )
