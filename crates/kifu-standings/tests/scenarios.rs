//! One scenario per criterion and per special case, with the expected values
//! worked out by hand from OpenGotha's definitions (docs/TOURNAMENTS.md).
//! All players start at SMMS 30 (1d) unless a rank says otherwise.

use kifu_standings::{
    scores, standings, Criterion, Game, GameResult, ModelError, Player, Settings, Tournament, Value,
};

struct T(Tournament);

impl T {
    fn new(rounds: u32) -> T {
        T(Tournament::new(Settings::mcmahon(rounds)))
    }
    fn player(mut self, id: &str, rank: &str) -> T {
        let p = Player::new(id, id, "", rank.parse().expect("rank"));
        self.0.players.push(p);
        self
    }
    fn players(mut self, ids: &[&str]) -> T {
        for id in ids {
            self = self.player(id, "1d");
        }
        self
    }
    fn game(self, round: u32, white: &str, black: &str, result: GameResult) -> T {
        self.game_with(round, white, black, result, 0, false)
    }
    fn game_with(
        mut self,
        round: u32,
        white: &str,
        black: &str,
        result: GameResult,
        handicap: u8,
        by_default: bool,
    ) -> T {
        let board = self.0.games.iter().filter(|g| g.round == round).count() as u32 + 1;
        self.0.games.push(Game {
            round,
            board,
            white: white.into(),
            black: black.into(),
            handicap,
            result,
            by_default,
            colours_known: true,
        });
        self
    }
    fn bye(mut self, round: u32, id: &str) -> T {
        self.0.byes.insert((round, id.into()));
        self
    }
    fn absent(mut self, round: u32, id: &str) -> T {
        self.0.absences.insert((round, id.into()));
        self
    }
    fn value(&self, after: u32, id: &str, c: Criterion) -> Value {
        scores(&self.0, after)
            .expect("scores")
            .into_iter()
            .find(|s| s.player == id)
            .expect("player")
            .get(c)
    }
}

use GameResult::{BlackWins, BothLose, BothWin, Jigo, WhiteWins};

fn pts(p: i64) -> Value {
    Value::from_points(p)
}
fn halves(h: i64) -> Value {
    Value::from_halves(h)
}

#[test]
fn nbw_and_mms_count_a_win_as_one_and_jigo_as_half() {
    let t = T::new(2)
        .players(&["A", "B"])
        .game(1, "A", "B", Jigo)
        .game(2, "B", "A", BlackWins);
    assert_eq!(t.value(2, "A", Criterion::Nbw), halves(3));
    assert_eq!(t.value(2, "A", Criterion::Mms), halves(63));
    assert_eq!(t.value(2, "B", Criterion::Nbw), halves(1));
    assert_eq!(t.value(2, "B", Criterion::Mms), halves(61));
    assert_eq!(t.value(2, "A", Criterion::Points), halves(3));
}

#[test]
fn smms_is_clamped_to_bar_and_floor_and_corrected() {
    let mut t = T::new(1)
        .player("Strong", "6d")
        .player("Weak", "25k")
        .player("C", "2k");
    t.0.players[2].smms_correction = 1;
    let all = scores(&t.0, 1).expect("scores");
    // Bar 4d → 30 + 3; floor 20k → 30 − 20; 2k → 28, corrected +1.
    assert_eq!(all.iter().map(|s| s.smms).collect::<Vec<_>>(), [33, 10, 29]);
}

#[test]
fn bye_gives_a_point_nothing_to_sosw_and_own_smms_to_sosm() {
    let t = T::new(1)
        .players(&["A", "B", "C"])
        .game(1, "A", "B", WhiteWins)
        .bye(1, "C");
    assert_eq!(t.value(1, "C", Criterion::Nbw), pts(1));
    assert_eq!(t.value(1, "C", Criterion::Mms), pts(31));
    assert_eq!(t.value(1, "C", Criterion::Sosw), pts(0));
    assert_eq!(t.value(1, "C", Criterion::Sosm), pts(30));
    assert_eq!(t.value(1, "C", Criterion::Sodosw), pts(0));
    assert_eq!(t.value(1, "C", Criterion::Sososw), pts(0));
    assert_eq!(t.value(1, "C", Criterion::Sososm), pts(30));
    assert_eq!(t.value(1, "C", Criterion::Wins), pts(1));
    assert_eq!(t.value(1, "C", Criterion::WinsOverTheBoard), pts(0));
    assert_eq!(t.value(1, "B", Criterion::Sosw), pts(1));
    assert_eq!(t.value(1, "B", Criterion::Sosm), pts(31));
}

#[test]
fn absence_gives_half_mms_rounded_down() {
    let t = T::new(2)
        .players(&["A", "B", "C"])
        .game(1, "B", "C", WhiteWins)
        .game(2, "C", "B", WhiteWins)
        .absent(1, "A")
        .absent(2, "A");
    // One absence: ½ rounded down to 0; two absences: 1.
    assert_eq!(t.value(1, "A", Criterion::Mms), pts(30));
    assert_eq!(t.value(2, "A", Criterion::Mms), pts(31));
    assert_eq!(t.value(2, "A", Criterion::Nbw), pts(0));
    assert_eq!(t.value(2, "A", Criterion::Cussm), pts(61));
}

#[test]
fn half_point_absence_kept_when_rounding_is_off() {
    let mut t = T::new(2)
        .players(&["A", "B", "C"])
        .game(1, "B", "C", WhiteWins)
        .game(2, "C", "B", WhiteWins)
        .absent(1, "A")
        .absent(2, "A");
    t.0.settings.round_down_bye_absent = false;
    assert_eq!(t.value(1, "A", Criterion::Mms), halves(61));
    assert_eq!(t.value(2, "A", Criterion::Mms), pts(31));
}

#[test]
fn rounding_down_applies_to_the_sum_of_bye_and_absence_points() {
    // A bye of ½ MMS and an absence of ½ MMS make one whole point together.
    let mut t = T::new(2)
        .players(&["A", "B", "C"])
        .game(1, "B", "C", WhiteWins)
        .game(2, "C", "B", WhiteWins)
        .bye(1, "A")
        .absent(2, "A");
    t.0.settings.mms2_bye = 1;
    assert_eq!(t.value(1, "A", Criterion::Mms), pts(30));
    assert_eq!(t.value(2, "A", Criterion::Mms), pts(31));
}

#[test]
fn late_arrival_and_unpaired_player() {
    // A arrives for round 2; C is present in round 2 but neither paired nor
    // given the bye.
    let t = T::new(2)
        .players(&["A", "B", "C"])
        .absent(1, "A")
        .game(1, "B", "C", WhiteWins)
        .game(2, "A", "B", WhiteWins);
    assert_eq!(t.value(2, "A", Criterion::Nbw), pts(1));
    assert_eq!(t.value(2, "A", Criterion::Mms), pts(31));
    assert_eq!(t.value(2, "A", Criterion::Sosw), pts(1));
    assert_eq!(t.value(2, "A", Criterion::Sosm), pts(61));
    assert_eq!(t.value(2, "C", Criterion::Nbw), pts(0));
    assert_eq!(t.value(2, "C", Criterion::Sosm), pts(61));
    assert_eq!(t.value(2, "A", Criterion::Sososw), pts(1));
    // SOSOSM: own SMMS × 2 rounds for the absent round, + SOSM(B) = 61.
    assert_eq!(t.value(2, "A", Criterion::Sososm), pts(121));
}

#[test]
fn withdrawal_counts_the_remaining_rounds_as_absent() {
    let t = T::new(3)
        .players(&["A", "B", "C"])
        .game(1, "A", "B", WhiteWins)
        .game(2, "B", "C", WhiteWins)
        .game(3, "C", "B", WhiteWins)
        .absent(2, "A")
        .absent(3, "A");
    assert_eq!(t.value(3, "A", Criterion::Nbw), pts(1));
    assert_eq!(t.value(3, "A", Criterion::Mms), pts(32));
    assert_eq!(t.value(3, "A", Criterion::Sosw), pts(1));
    assert_eq!(t.value(3, "A", Criterion::SoswM1), pts(1));
    assert_eq!(t.value(3, "A", Criterion::SoswM2), pts(1));
    assert_eq!(t.value(3, "A", Criterion::Sosm), pts(91));
    assert_eq!(t.value(3, "A", Criterion::SosmM1), pts(61));
    assert_eq!(t.value(3, "A", Criterion::SosmM2), pts(31));
}

#[test]
fn sos_cuts_follow_opengotha_before_round_three() {
    let t = T::new(2)
        .players(&["A", "B", "C"])
        .game(1, "A", "B", WhiteWins)
        .game(2, "A", "C", BlackWins)
        .game(2, "B", "C", WhiteWins);
    // Invalid: C twice in round 2.
    assert!(matches!(
        scores(&t.0, 2),
        Err(ModelError::PairedTwice { round: 2, .. })
    ));
    let t = T::new(2)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", WhiteWins)
        .game(1, "C", "D", WhiteWins)
        .game(2, "A", "C", BlackWins)
        .game(2, "B", "D", WhiteWins);
    // A's opponents: B (1 win), C (2 wins). SOSW-1 keeps the larger, SOSW-2
    // is 0 after two rounds; OpenGotha leaves SOSM-1/-2 at 0 before round 3.
    assert_eq!(t.value(2, "A", Criterion::Sosw), pts(3));
    assert_eq!(t.value(2, "A", Criterion::SoswM1), pts(2));
    assert_eq!(t.value(2, "A", Criterion::SoswM2), pts(0));
    assert_eq!(t.value(2, "A", Criterion::Sosm), pts(63));
    assert_eq!(t.value(2, "A", Criterion::SosmM1), pts(0));
    assert_eq!(t.value(2, "A", Criterion::SosmM2), pts(0));
    assert_eq!(t.value(1, "A", Criterion::SoswM1), pts(0));
    assert_eq!(t.value(2, "A", Criterion::MedianBuchholz), pts(0));
}

#[test]
fn forfeit_win_counts_as_a_win_and_its_opponent_in_sos() {
    let t = T::new(2)
        .players(&["A", "B", "C", "D"])
        .game_with(1, "A", "B", WhiteWins, 0, true)
        .game(1, "C", "D", WhiteWins)
        .game(2, "A", "C", BlackWins)
        .game(2, "B", "D", WhiteWins);
    assert_eq!(t.value(2, "A", Criterion::Nbw), pts(1));
    assert_eq!(t.value(2, "A", Criterion::Sosw), pts(3));
    assert_eq!(t.value(2, "A", Criterion::Sodosw), pts(1));
    assert_eq!(t.value(2, "A", Criterion::Wins), pts(1));
    assert_eq!(t.value(2, "A", Criterion::WinsOverTheBoard), pts(0));
    assert_eq!(t.value(2, "B", Criterion::Sosw), pts(1));
}

#[test]
fn forfeit_both_lose_keeps_the_opponent_in_sosm() {
    // A 2d (SMMS 31) and B 1k (29) both lose by default: paired, so each
    // counts the other's MMS, not their own SMMS.
    let t = T::new(1)
        .player("A", "2d")
        .player("B", "1k")
        .game_with(1, "A", "B", BothLose, 0, true);
    assert_eq!(t.value(1, "A", Criterion::Nbw), pts(0));
    assert_eq!(t.value(1, "A", Criterion::Mms), pts(31));
    assert_eq!(t.value(1, "A", Criterion::Sosm), pts(29));
    assert_eq!(t.value(1, "B", Criterion::Sosm), pts(31));
}

#[test]
fn forfeit_is_left_out_of_direct_confrontation() {
    let t = T::new(2)
        .players(&["A", "B", "C", "D"])
        .game_with(1, "A", "B", WhiteWins, 0, true)
        .game(1, "C", "D", WhiteWins)
        .game(2, "A", "C", BlackWins)
        .game(2, "B", "D", WhiteWins);
    // A and B tie on NBW 1; their only game was by default: no DC, no SDC.
    let st = standings(
        &t.0,
        2,
        &[Criterion::Nbw, Criterion::Dc, Criterion::Sdc],
        &[],
    )
    .expect("standings");
    let row = |id: &str| st.rows.iter().find(|r| r.player == id).expect("row");
    assert_eq!(row("A").place, 2);
    assert_eq!(row("B").place, 2);
    assert_eq!(row("A").get(Criterion::Dc), Some(pts(0)));
    assert_eq!(row("B").get(Criterion::Sdc), Some(pts(0)));
}

#[test]
fn jigo_counts_half_in_sodos() {
    let t = T::new(1).players(&["A", "B"]).game(1, "A", "B", Jigo);
    assert_eq!(t.value(1, "A", Criterion::Sodosw), Value::from_quarters(1));
    assert_eq!(t.value(1, "A", Criterion::Sodosm), Value::from_quarters(61));
    assert_eq!(
        t.value(1, "A", Criterion::SonnebornBerger),
        Value::from_quarters(1)
    );
    assert_eq!(t.value(1, "A", Criterion::Wins), pts(0));
}

#[test]
fn both_win_gives_each_a_win() {
    let t = T::new(1)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", BothWin)
        .game(1, "C", "D", BothLose);
    assert_eq!(t.value(1, "A", Criterion::Nbw), pts(1));
    assert_eq!(t.value(1, "B", Criterion::Nbw), pts(1));
    assert_eq!(t.value(1, "A", Criterion::Sodosw), pts(1));
    assert_eq!(t.value(1, "B", Criterion::Exr), pts(1));
    assert_eq!(t.value(1, "C", Criterion::Nbw), pts(0));
    assert_eq!(t.value(1, "C", Criterion::Sosw), pts(0));
    assert_eq!(t.value(1, "C", Criterion::Sosm), pts(30));
}

#[test]
fn handicap_corrects_sosm_and_weights_ext_exr() {
    // A 1d (30) gives B 3k (27) two stones; B wins. Round 2: A beats C (1d).
    let t = T::new(2)
        .player("A", "1d")
        .player("B", "3k")
        .player("C", "1d")
        .game_with(1, "A", "B", BlackWins, 2, false)
        .game(2, "A", "C", WhiteWins);
    // White adds the handicap to the opponent's MMS, Black subtracts it;
    // B's unpaired round 2 counts B's own SMMS.
    assert_eq!(t.value(2, "A", Criterion::Sosm), pts(28 + 2 + 30));
    assert_eq!(t.value(2, "B", Criterion::Sosm), pts(31 - 2 + 27));
    // EXT/EXR: B as Black got 2 stones where ranks give 3: coefficient 2.
    assert_eq!(t.value(2, "B", Criterion::Ext), pts(2));
    assert_eq!(t.value(2, "B", Criterion::Exr), pts(2));
    // A gave 2 stones instead of 3 (harder for A... no: easier): 0.
    assert_eq!(t.value(2, "A", Criterion::Ext), pts(0));
    // C, an even game between equals: coefficient 1, lost.
    assert_eq!(t.value(2, "C", Criterion::Ext), pts(1));
    assert_eq!(t.value(2, "C", Criterion::Exr), pts(0));
}

#[test]
fn half_point_option_uses_virtual_opponent_scores() {
    // R1: A beats B, C unpaired. R2: C beats A, B absent.
    let mut t = T::new(2)
        .players(&["A", "B", "C"])
        .game(1, "A", "B", WhiteWins)
        .game(2, "A", "C", BlackWins)
        .absent(2, "B");
    assert_eq!(t.value(2, "A", Criterion::Sosw), pts(1));
    assert_eq!(t.value(2, "A", Criterion::Sosm), pts(61));
    t.0.settings.unplayed_as_half = true;
    // Virtual: B 0 + ½ (absent), C ½ (unpaired) + 1.
    assert_eq!(t.value(2, "A", Criterion::Sosw), pts(2));
    assert_eq!(t.value(2, "A", Criterion::Sosm), pts(62));
    // The player's own unplayed rounds still add 0.
    assert_eq!(t.value(2, "B", Criterion::Sosw), pts(1));
    // NBW itself is not changed.
    assert_eq!(t.value(2, "B", Criterion::Nbw), pts(0));
}

#[test]
fn cuss_sums_the_running_scores() {
    let t = T::new(3)
        .players(&["A", "B"])
        .game(1, "A", "B", WhiteWins)
        .game(2, "A", "B", BlackWins)
        .game(3, "B", "A", BlackWins);
    assert_eq!(t.value(3, "A", Criterion::Cussw), pts(1 + 1 + 2));
    assert_eq!(t.value(3, "A", Criterion::Cussm), pts(31 + 31 + 32));
}

#[test]
fn sosos_sums_the_opponents_sos() {
    let t = T::new(2)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", WhiteWins)
        .game(1, "C", "D", WhiteWins)
        .game(2, "A", "C", WhiteWins)
        .game(2, "B", "D", WhiteWins);
    // SOSW: A = B1 + C1 = 2; B = A2 + D0 = 2; C = D0 + A2 = 2; D = C1 + B1 = 2.
    assert_eq!(t.value(2, "A", Criterion::Sososw), pts(4));
    assert_eq!(t.value(2, "D", Criterion::Sososw), pts(4));
}

#[test]
fn dc_merges_a_cycle_and_places_its_beater_first() {
    // A>B, B>C, C>A is a cycle; D beat A. Ordered on DC alone.
    let t = T::new(4)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", WhiteWins)
        .game(2, "B", "C", WhiteWins)
        .game(3, "C", "A", WhiteWins)
        .game(4, "D", "A", WhiteWins);
    let st = standings(&t.0, 4, &[Criterion::Dc, Criterion::Sdc], &[]).expect("standings");
    let row = |id: &str| st.rows.iter().find(|r| r.player == id).expect("row");
    assert_eq!(row("D").place, 1);
    assert_eq!(row("D").get(Criterion::Dc), Some(pts(1)));
    for id in ["A", "B", "C"] {
        assert_eq!(row(id).place, 2, "{id}");
        assert_eq!(row(id).get(Criterion::Dc), Some(pts(0)));
        // Not everybody met everybody: SDC is 0.
        assert_eq!(row(id).get(Criterion::Sdc), Some(pts(0)));
    }
}

#[test]
fn dc_a_cycle_shares_its_members_losses() {
    // Ordered on NBW, DC, SOSW. A>B, B>C, C>A is a cycle; D beat B, a
    // member of the cycle; E beat D. O1 beat A and O2 beat C (round 4),
    // O1 and O2 having won a game each before, so that SOSW puts A and C
    // (4) above B (3), D (2) and E (1). A..E have one win each (NBW 1).
    // OpenGotha merges the cycle into one node: D, having beaten B, beat
    // the node, so D stands above A, B and C, and E above D. Placed from
    // the bottom: B (the lowest of the free cycle), then A and C together
    // (D is not free while a member of the cycle it beat remains), then
    // D, then E. Counting only D's win over B alone would free D as soon
    // as B is placed and put it below A and C.
    let t = T::new(4)
        .players(&["A", "B", "C", "D", "E", "O1", "O2", "O3", "O4"])
        .game(1, "A", "B", WhiteWins)
        .game(1, "E", "D", WhiteWins)
        .game(1, "O1", "O3", WhiteWins)
        .game(1, "O2", "O4", WhiteWins)
        .game(2, "B", "C", WhiteWins)
        .game(3, "C", "A", WhiteWins)
        .game(3, "D", "B", WhiteWins)
        .game(4, "O1", "A", WhiteWins)
        .game(4, "O2", "C", WhiteWins);
    let crit = [Criterion::Nbw, Criterion::Dc, Criterion::Sosw];
    let st = standings(&t.0, 4, &crit, &[]).expect("standings");
    let got: Vec<(&str, u32, Option<Value>, Option<Value>)> = st
        .rows
        .iter()
        .map(|r| {
            (
                r.player.as_str(),
                r.place,
                r.get(Criterion::Dc),
                r.get(Criterion::Sosw),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("O1", 1, Some(pts(0)), Some(pts(1))),
            ("O2", 1, Some(pts(0)), Some(pts(1))),
            ("E", 3, Some(pts(4)), Some(pts(1))),
            ("D", 4, Some(pts(3)), Some(pts(2))),
            ("A", 5, Some(pts(2)), Some(pts(4))),
            ("C", 5, Some(pts(2)), Some(pts(4))),
            ("B", 7, Some(pts(0)), Some(pts(3))),
            ("O3", 8, Some(pts(0)), Some(pts(2))),
            ("O4", 8, Some(pts(0)), Some(pts(2))),
        ]
    );
}

#[test]
fn sdc_and_dc_count_wins_when_all_met() {
    let t = T::new(3)
        .players(&["A", "B", "C"])
        .game(1, "A", "B", WhiteWins)
        .game(2, "C", "A", BlackWins)
        .game(3, "B", "C", WhiteWins);
    for c in [Criterion::Sdc, Criterion::Dc] {
        let st = standings(&t.0, 3, &[c], &[]).expect("standings");
        let got: Vec<(&str, u32, Option<Value>)> = st
            .rows
            .iter()
            .map(|r| (r.player.as_str(), r.place, r.get(c)))
            .collect();
        assert_eq!(
            got,
            [
                ("A", 1, Some(pts(2))),
                ("B", 2, Some(pts(1))),
                ("C", 3, Some(pts(0))),
            ],
            "{c}"
        );
    }
}

#[test]
fn dc_leaves_a_tie_between_players_who_never_met_without_later_criteria() {
    // A and B tie on NBW and never met; nothing after DC separates them.
    let t = T::new(1)
        .players(&["A", "B", "X", "Y"])
        .game(1, "A", "X", WhiteWins)
        .game(1, "B", "Y", WhiteWins);
    let st = standings(&t.0, 1, &[Criterion::Nbw, Criterion::Dc], &[]).expect("standings");
    assert_eq!(st.rows[0].place, 1);
    assert_eq!(
        st.rows[1].place, 1,
        "no games between A and B, no secondary"
    );
}

#[test]
fn head_to_head_needs_every_tied_player_to_have_met() {
    let t = T::new(2)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", Jigo)
        .game(1, "C", "D", WhiteWins)
        .game(2, "C", "A", BlackWins)
        .game(2, "D", "B", WhiteWins);
    // NBW: A 1.5, B 0.5, C 1, D 1 — C and D tie and met: C won.
    let st = standings(&t.0, 2, &[Criterion::Points, Criterion::HeadToHead], &[]).expect("st");
    let order: Vec<&str> = st.rows.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(order, ["A", "C", "D", "B"]);
    assert_eq!(st.rows[1].get(Criterion::HeadToHead), Some(pts(1)));
    assert_eq!(st.rows[2].get(Criterion::HeadToHead), Some(pts(0)));
}

#[test]
fn ties_share_a_place() {
    let t = T::new(1)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", WhiteWins)
        .game(1, "C", "D", WhiteWins);
    let st = standings(&t.0, 1, &[Criterion::Nbw], &[]).expect("standings");
    let places: Vec<(String, u32)> = st
        .rows
        .iter()
        .map(|r| (r.player.clone(), r.place))
        .collect();
    assert_eq!(
        places,
        [
            ("A".to_string(), 1),
            ("C".to_string(), 1),
            ("B".to_string(), 3),
            ("D".to_string(), 3)
        ]
    );
}

#[test]
fn bad_input_is_refused() {
    let unregistered = T::new(1).players(&["A"]).game(1, "A", "Z", WhiteWins);
    assert!(matches!(
        scores(&unregistered.0, 1),
        Err(ModelError::UnknownPlayer { .. })
    ));
    let twice = T::new(1)
        .players(&["A", "B", "C"])
        .game(1, "A", "B", WhiteWins)
        .bye(1, "A");
    assert!(matches!(
        scores(&twice.0, 1),
        Err(ModelError::PairedTwice { .. })
    ));
    let selfish = T::new(1).players(&["A"]).game(1, "A", "A", WhiteWins);
    assert!(matches!(
        scores(&selfish.0, 1),
        Err(ModelError::SelfPairing { .. })
    ));
    let late = T::new(1).players(&["A", "B"]).game(2, "A", "B", WhiteWins);
    assert!(matches!(
        scores(&late.0, 1),
        Err(ModelError::BadRound { .. })
    ));
    let ok = T::new(1).players(&["A", "B"]);
    assert!(matches!(
        scores(&ok.0, 2),
        Err(ModelError::NoSuchRound { .. })
    ));
    assert!("SOS".parse::<Criterion>().is_err());
    assert!("31z".parse::<kifu_standings::Rank>().is_err());
}

#[test]
fn dc_and_sdc_exist_only_when_one_of_them_is_a_placement_criterion() {
    // Everybody has one win: A>B, B>C, C>A (a cycle), D>A.
    let t = T::new(4)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", WhiteWins)
        .game(2, "B", "C", WhiteWins)
        .game(3, "C", "A", WhiteWins)
        .game(4, "D", "A", WhiteWins);
    let dc_of = |st: &kifu_standings::Standings, id: &str| {
        st.rows
            .iter()
            .find(|r| r.player == id)
            .and_then(|r| r.get(Criterion::Dc))
            .expect("row")
    };
    // Shown only: OpenGotha does not compute them (`fillDirScoringInfo`).
    let st = standings(
        &t.0,
        4,
        &[Criterion::Points],
        &[Criterion::Dc, Criterion::Sdc],
    )
    .expect("standings");
    assert_eq!(dc_of(&st, "D"), pts(0));
    // SDC in the list brings DC along, within the tie on points.
    let st = standings(
        &t.0,
        4,
        &[Criterion::Points, Criterion::Sdc],
        &[Criterion::Dc],
    )
    .expect("standings");
    assert_eq!(dc_of(&st, "D"), pts(1));
    assert_eq!(dc_of(&st, "A"), pts(0));
}
