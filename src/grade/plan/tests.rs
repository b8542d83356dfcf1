use super::*;

#[test]
fn shipped_plans_are_valid() {
    for (name, text) in SHIPPED {
        let plan = Plan::parse(name, text).unwrap();
        assert_eq!(plan.name, name);
        let rejections = plan
            .cases()
            .filter(|c| c.expect == Expect::Rejection)
            .count();
        assert!(rejections >= 20, "{name}: {rejections} bad command lines");
    }
}

#[test]
fn errors_name_the_line() {
    let text =
        "name = \"x\"\n\n[[case]]\nname = \"a\"\nexpect = \"grids\"\nargs = [\"-c\", \"1\"]\n";
    let error = Plan::parse("p.toml", text).unwrap_err();
    assert_eq!(error.to_string(), "p.toml:3: case `a`: `count` is needed");
    let error = Plan::parse("p.toml", "name = \"x\"\nbogus = 1\n").unwrap_err();
    assert_eq!(error.line, Some(2), "{error}");
    assert!(error.message.contains("bogus"), "{error}");
}

proptest::proptest! {
    #[test]
    fn any_text_is_read_or_refused_with_a_line_inside_it(text in "[a-z\\[\\]=\"0-9 \n{},.]{0,200}") {
        if let Err(error) = Plan::parse("p", &text) {
            let lines = text.split('\n').count();
            proptest::prop_assert!(error.line.is_none_or(|line| (1..=lines).contains(&line)));
        }
    }
}

#[test]
fn case_problems_are_found() {
    let plan = |case: &str| Plan::parse("p", &format!("name = \"x\"\n[[case]]\n{case}\n"));
    let grids = "name = \"a\"\nexpect = \"grids\"\ncount = 1";
    assert!(plan(&format!("{grids}\npoints = 1")).is_ok());
    let speed = format!("{grids}\ntiers = [{{ ratio = 2, points = 1 }}]");
    assert!(plan(&speed).is_ok());
    for (bad, why) in [
        (
            "name = \"a b\"\nexpect = \"grids\"\ncount = 1\npoints = 1",
            "case name",
        ),
        (
            "name = \"a\"\nexpect = \"solutions\"\npoints = 1",
            "needs an `input`",
        ),
        (
            "name = \"a\"\nexpect = \"solutions\"\ninput = { file = \"p.txt\", text = \"not a puzzle\" }\npoints = 1",
            "not a file of 9×9 puzzles",
        ),
        (
            "name = \"a\"\nexpect = \"puzzles\"\ncount = 5\nlevel = 4\npoints = 1",
            "level",
        ),
        (
            "name = \"a\"\nexpect = \"puzzles\"\ncount = 5\nlevel = 2\nblanks = [5, 10]\npoints = 1",
            "blank",
        ),
        (
            "name = \"a\"\nexpect = \"rejection\"\ninput = { file = \"../x\", text = \"\" }\npoints = 1",
            "plain file name",
        ),
        (
            "name = \"a\"\nexpect = \"grids\"\ncount = 1\ntiers = [{ ratio = 2, points = 1 }, { ratio = 1, points = 2 }]",
            "rising",
        ),
        (
            "name = \"a\"\nexpect = \"grids\"\ncount = 1\ntiers = [{ ratio = inf, points = 1 }]",
            "rising",
        ),
        (
            "name = \"a\"\nexpect = \"rejection\"\ntimeout = 0\npoints = 1",
            "0.001 to 86400",
        ),
        (
            "name = \"a\"\nexpect = \"rejection\"\ntimeout = 1e19\npoints = 1",
            "0.001 to 86400",
        ),
        ("name = \"a\"\nexpect = \"rejection\"", "`points` is needed"),
        (&format!("{speed}\npoints = 0"), "not `points`"),
        (&format!("{grids}\npoints = 1e308"), "from 0 to 1000"),
        (&format!("{grids}\npoints = 0.001"), "hundredths"),
        (&format!("{grids}\npoints = -1"), "from 0 to 1000"),
        (&format!("{grids}\npoints = nan"), "from 0 to 1000"),
        (
            "name = \"a\"\nexpect = \"grids\"\ncount = 99999999999999999\npoints = 1",
            "1 to 1000000",
        ),
        (
            "name = \"a\"\nexpect = \"grids\"\ncount = 0\npoints = 1",
            "1 to 1000000",
        ),
        (
            &format!("{grids}\npoints = 1\noutput_cap = 0"),
            "from 162 to 1073741824",
        ),
        (
            &format!("{grids}\npoints = 1\noutput_cap = 161"),
            "from 162 to",
        ),
        (
            "name = \"a\"\nexpect = \"rejection\"\npoints = 1\noutput_cap = 0",
            "from 1 to",
        ),
        (
            &format!("{grids}\npoints = 1\noutput_cap = 1073741825"),
            "to 1073741824 bytes",
        ),
    ] {
        let error = plan(bad).unwrap_err();
        assert_eq!(error.line, Some(2), "{bad}: {error}");
        assert!(error.message.contains(why), "{bad}: {error}");
    }
    assert!(plan(&format!("{grids}\npoints = 1\noutput_cap = 162")).is_ok());
    let twice = "name = \"x\"\n[[case]]\nname = \"a\"\nexpect = \"rejection\"\npoints = 1\n[[case]]\nname = \"a\"\nexpect = \"rejection\"\npoints = 1\n";
    assert_eq!(
        Plan::parse("p", twice).unwrap_err().to_string(),
        "p:6: a second case named `a`"
    );
}

#[test]
fn blank_ranges_and_tier_lists_say_what_is_wrong_with_them() {
    let plan = |case: &str| {
        Plan::parse(
            "p",
            &format!("name = \"x\"\n[[case]]\nname = \"a\"\n{case}\n"),
        )
        .unwrap_err()
        .to_string()
    };
    let puzzles = "expect = \"puzzles\"\ncount = 5\npoints = 1\nblanks";
    assert_eq!(
        plan(&format!("{puzzles} = [50, 30]")),
        "p:2: case `a`: `blanks = [50, 30]` runs from high to low: it is [LOW, HIGH], [30, 50]"
    );
    assert_eq!(
        plan(&format!("{puzzles} = [1, 2, 3]")),
        "p:7: `blanks` is [LOW, HIGH], two counts such as [30, 50], not a list of 3"
    );
    assert!(
        plan(&format!("{puzzles} = 30~50"))
            .ends_with(" (`blanks` is [LOW, HIGH], two counts such as [30, 50])")
    );
    let tiers = plan("expect = \"grids\"\ncount = 1\ntiers = []");
    assert!(
        tiers.starts_with("p:6: `tiers = []` lists no tier"),
        "{tiers}"
    );
}

#[test]
fn the_plan_settings_are_located_too() {
    let case = "[[case]]\nname = \"a\"\nexpect = \"rejection\"\npoints = 1\n";
    for (setting, why) in [
        (
            "timeout = 1e19",
            "`timeout` must be from 0.001 to 86400 seconds (a day)",
        ),
        (
            "timeout = inf",
            "`timeout` must be from 0.001 to 86400 seconds (a day)",
        ),
        (
            "output = \"../x\"",
            "`output`: `../x` is not a plain file name",
        ),
    ] {
        let text = format!("name = \"x\"\n\n{setting}\n{case}");
        let error = Plan::parse("p.toml", &text).unwrap_err();
        assert_eq!(error.to_string(), format!("p.toml:3: {why}"), "{setting}");
    }
    let error = Plan::parse("p.toml", "name = \"x\"\ncase = []\n").unwrap_err();
    assert_eq!(error.to_string(), "p.toml:1: the plan has no `[[case]]`");
    let missing = Plan::load("nonexistent.toml").unwrap_err().to_string();
    assert!(
        missing.starts_with("sudoku-gen: error: nonexistent.toml: "),
        "{missing}"
    );
}
