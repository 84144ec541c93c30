"""The app's model out of the collector's reach between scans, and no garbage kept with it:
a reload's scan must not freeze the garbage of the model before it (collected once the
scan is over). Frozen at the scan's start, each model's garbage in cycles stayed out of
every collection after it: about 1,300 more objects a reload of this small workspace, 27,000
at scale 1."""

from __future__ import annotations

import gc

from app_helpers import loaded, review, until

SIZE = (120, 36)


async def test_reloads_pile_up_no_garbage_out_of_the_collectors_reach(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, pilot)
        screen = review(app)
        for _ in range(5):
            screen.reload()
            await loaded(app, pilot)
            assert not screen.scanning and screen.result is not None
            await until(pilot, lambda: screen.set_aside_for == screen.scans_over)
        gc.collect()  # the garbage the collector can reach
        gc.unfreeze()  # …then what was frozen, back in its reach
        frozen_garbage = gc.collect()
        gc.freeze()
        # what the screen let go since the last scan's end (render caches of rows drawn
        # again): a few hundred objects at most, however many reloads came before
        assert frozen_garbage < 1000, frozen_garbage
