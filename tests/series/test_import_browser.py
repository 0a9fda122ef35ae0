"""The director imports the example season's past in Debian's chromium, on a phone and a
laptop: upload, the dry run, a choice of player, confirm. Screenshots land in
test-artifacts/."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, expect

from series.models import Player, Result, Season
from series.services import director_grant
from tests.browser import ARTIFACTS, PHONE, needs_chromium, picture

pytestmark = needs_chromium

LAPTOP = {"width": 1366, "height": 768}
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "past-results.csv"


def test_the_director_imports_a_season_on_a_phone_and_a_laptop(
    transactional_db: None, live_server, live_browser: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    director = director_grant(User.objects.create_user("host"))
    Player.objects.create(name="Elodie")
    client = Client()
    client.force_login(director)
    for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        context = live_browser.new_context(viewport=viewport)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        page = context.new_page()
        page.goto(live_server.url + "/director/")
        page.get_by_role("link", name="Import past results").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Import past results")
        page.get_by_label("New season's name").fill("Omaha 2024")
        page.locator("input[type=file]").set_input_files(str(EXAMPLE))
        page.get_by_role("button", name="Show what it imports").click()
        expect(page.get_by_text("Dry run: what the import does")).to_be_visible()
        expect(page.locator("#import-preview tbody tr")).to_have_count(3)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        picture(page, str(ARTIFACTS / f"import-preview-{size}.png"), full_page=True)
        if size == "phone":
            # Élodie is the site's Elodie: the director says she is a new guest instead.
            page.get_by_label("Élodie").select_option(label="A new guest named Élodie")
            page.get_by_role("button", name="Import", exact=True).click()
            expect(page.get_by_text("Imported into Omaha 2024.")).to_be_visible()
            picture(page, str(ARTIFACTS / "import-done-phone.png"), full_page=True)
        else:
            expect(page.get_by_text("importing it changes nothing")).to_be_visible()
        context.close()
    season = Season.objects.get(name="Omaha 2024")
    assert Result.objects.filter(event__season=season).count() == 13
    assert Player.objects.filter(name="Élodie").exists()


FRENCH_SHEET = (
    "Date;Soirée;Joueur;Place;Cave;Gains;Commentaire\n"
    "02/09/2025;Ouverture;Ann;1;20,00 €;1 105 €;belle main\n"
    "02/09/2025;Ouverture;Élodie;2;20,00 €;55 €;\n"
    "01/10/2025 19:30;Deuxième;Ann;2;20 €;0;\n"
    "01/10/2025 19:30;Deuxième;Cal;1;20 €;80;\n"
)
# The host's headers, and the site's column each is (or ignored).
SHEET_COLUMNS = ("date", "event", "player", "place", "buy_in", "prize", "ignore")


def test_a_hosts_own_sheet_is_mapped_and_imported_on_a_phone_in_english_and_french(
    transactional_db: None, live_server, live_browser: Browser, tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    sheet = tmp_path / "saison.csv"
    sheet.write_bytes(FRENCH_SHEET.encode("cp1252"))
    director = director_grant(User.objects.create_user("host"))
    client = Client()
    client.force_login(director)
    words = {
        "en": ("New season's name", "File", "Show what it imports", "Your columns",
               "The day: 12/09/2025 is 12 September", "Dry run: what the import does",
               "Import", "Imported into"),
        "fr": ("Nom de la nouvelle saison", "Fichier", "Voir ce qu’il importe", "Vos colonnes",
               "Le jour : 12/09/2025 est le 12 septembre", "Essai à blanc",
               "Importer", "Importé dans"),
    }  # fmt: skip
    for language, locale in (("en", "en-GB"), ("fr", "fr-FR")):
        name, _file, show, columns, day_first, dry_run, import_, done = words[language]
        context = live_browser.new_context(viewport=PHONE, locale=locale)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        page = context.new_page()
        page.goto(live_server.url + "/series/import/")
        page.get_by_label(name).fill(f"Saison {language}")
        page.locator("input[type=file]").set_input_files(str(sheet))
        page.get_by_role("button", name=show).first.click()
        expect(page.get_by_role("heading", name=columns)).to_be_visible()
        expect(page.locator("#import-mapping")).to_contain_text("1 105 €")
        mapping = page.locator("#import-mapping select")
        for index, ours in enumerate(SHEET_COLUMNS):
            mapping.nth(index).select_option(ours)
        mapping.nth(len(SHEET_COLUMNS)).select_option(label=day_first)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        picture(page, str(ARTIFACTS / f"import-mapping-phone-{language}.png"), full_page=True)
        page.locator("#import-mapping").get_by_role("button", name=show).click()
        expect(page.get_by_text(dry_run)).to_be_visible()
        expect(page.locator("#import-preview tbody tr")).to_have_count(2)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        picture(
            page, str(ARTIFACTS / f"import-mapped-preview-phone-{language}.png"), full_page=True
        )
        page.get_by_role("button", name=import_, exact=True).click()
        expect(page.get_by_text(done).first).to_be_visible()
        context.close()
        season = Season.objects.get(name=f"Saison {language}")
        assert Result.objects.filter(event__season=season).count() == 4
        opening = season.events.get(name="Ouverture")
        assert opening.starts_at.date().isoformat() == "2025-09-02"
        assert opening.results.get(player__name="Ann").prize == 1105
