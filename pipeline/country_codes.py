"""Natural Earth's country codes and ISO 3166-1 alpha-3, both ways, from one reviewed table.

Natural Earth keys entities by ADM0_A3, which differs from ISO 3166 for a few of them (Kosovo takes the
user-assigned XKX by convention); every other ADM0_A3 that is an ISO code is the same code.
"""

ADM0_TO_ISO3 = {"KOS": "XKX", "SDS": "SSD", "PSX": "PSE", "SAH": "ESH", "ALD": "ALA"}
ISO3_TO_ADM0 = {iso3: adm0 for adm0, iso3 in ADM0_TO_ISO3.items()}


def natural_earth_code(iso3: str) -> str:
    """Natural Earth's ADM0_A3 for an ISO3 code."""
    return ISO3_TO_ADM0.get(iso3, iso3)
