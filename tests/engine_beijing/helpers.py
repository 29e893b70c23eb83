from scoring.engine.beijing import resolve, settle


def bj(result, dealer=0, rules=None, **record):
    """Settle a Beijing record with optional rule overrides."""
    spec = {"preset": "beijing", **(rules or {})}
    rec = {"rules": spec, "dealer": dealer, "result": result, **record}
    return settle(rec, resolve(spec))


def per_payer(out):
    """{payer seat: total paid} from the payment lines."""
    paid = {}
    for line in out["payments"]:
        paid[line["from"]] = paid.get(line["from"], 0) + line["points"]
    return paid
