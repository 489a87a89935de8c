"""The studio is safe by construction: an access token off loopback, a CSRF token on every form, no request value
as a path, a capped upload, escaped data, sessions that never share a draft."""

from pipeline import paths
from pipeline.studio import drafts, server
from studio.pages import STATES, client, csrf, problems, table_bytes


def test_off_loopback_every_browser_gives_the_printed_token_once(workshop):
    with client("s3cret") as browser:
        assert browser.get("/").status_code == 403
        assert browser.get("/?token=wrong").status_code == 403
        assert browser.get("/?token=s3cret").status_code == 200
        assert browser.get("/make").status_code == 200  # the session is admitted from now on
    with client("s3cret") as stranger:
        assert stranger.get("/make").status_code == 403
    assert server.loopback("127.0.0.1") and server.loopback("::1") and server.loopback("localhost")
    assert not server.loopback("0.0.0.0") and not server.loopback("192.168.1.5")
    assert server.address("10.0.0.2", 8765, "t") == "http://10.0.0.2:8765/?token=t"


def test_a_form_without_the_sessions_csrf_token_is_refused(workshop):
    with client() as browser, client() as other:
        page = browser.get("/").text
        assert browser.post("/language", data={"lang": "de"}).status_code == 403
        assert browser.post("/language", data={"lang": "de", "csrf": csrf(other.get("/").text)}).status_code == 403
        assert browser.post("/make", data={**STATES, "csrf": "forged"}).status_code == 403
        assert not (workshop / "output" / "studio").exists()  # a refused form writes nothing
        moved = browser.post("/language", data={"lang": "de", "csrf": csrf(page), "back": "//evil.example/"})
        assert moved.status_code == 303 and moved.headers["location"] == "/"
        assert '<html lang="de">' in browser.get("/").text


def test_no_request_value_becomes_a_path(workshop, built_in):
    with client() as browser:
        for address in (
            "/games/..%2F..%2Fetc",
            "/games/laender-toppen?version=..%2F..%2F..%2Fetc",
            f"/games/laender-toppen/{built_in}/cards/..%2F..%2Fdeck.json/front.png",
            f"/games/laender-toppen/{built_in}/cards/lt-XXX/front.png",
            "/games/laender-toppen/..%2F..%2Fpipeline/cards/lt-DEU/front.png",
            f"/games/laender-toppen/{built_in}/cards/lt-DEU/side.png",
            "/jobs/..%2F..%2Fetc/file",
            "/static/..%2F..%2Fapp.py",
        ):
            answer = browser.get(address)
            assert answer.status_code == 404, address
            assert "Traceback" not in answer.text


def test_an_upload_over_the_cap_is_refused_before_it_is_read(workshop, monkeypatch):
    monkeypatch.setattr(drafts, "upload_cap", lambda: 4_000)
    with client() as browser:
        token = csrf(browser.get("/make").text)
        big = b"Land,Region\n" + b"x" * 10_000
        answer = browser.post(
            "/make", data={**STATES, "csrf": token}, files={"items.table": ("t.csv", big, "text/csv")}
        )
        assert answer.status_code == 413
        assert not (workshop / "output" / "studio").exists()


def test_text_from_data_is_escaped_markup_and_control_characters_included(workshop):
    hostile = '<img src=x onerror="alert(1)">'
    table = table_bytes().replace(b"Bremen,", f'"{hostile}\x1b[31m",'.encode())
    with client() as browser:
        token = csrf(browser.get("/make").text)
        form = {**STATES, "csrf": token, "recipe.title": f"{hostile}\x07", "categories[1].words.label": "<b>Fläche"}
        page = browser.post("/make", data=form, files={"items.table": ("t.csv", table, "text/csv")}).text
    assert "<img src=x" not in page and "<b>Fläche" not in page and "\x1b" not in page and "\x07" not in page
    assert "&lt;img src=x" in page and 'value="&lt;b&gt;Fläche"' in page
    shown = problems(page)
    assert "recipe.title" in shown and "control character" in shown["recipe.title"][0]


def test_two_sessions_never_share_a_draft(workshop):
    with client() as teacher, client() as pupil:
        token = csrf(teacher.get("/make").text)
        teacher.post("/make", data={**STATES, "csrf": token, "recipe.title": "7b"})
        page = pupil.get("/make").text
        assert 'value="7b"' not in page and 'value="states"' not in page
        assert 'value="7b"' in teacher.get("/make").text
    folders = sorted((paths.OUTPUT_DIR / "studio").iterdir())
    assert len(folders) == 1  # the pupil wrote nothing; the teacher's draft lies in a folder of its own
