"""The review page of a deck refresh (`geodeck review`): model.py what it shows, page.py the HTML and card
images, browser.py headless Chromium for its test and screenshot."""
