#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Hand categories. `Ord` follows the game: a greater category beats a lesser one (derived
/// orderings of enums compare the explicit discriminants, so the variants can be listed best
/// first as the seed lists them). The discriminant is also the top field of a strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Category {
    FiveJokers = 10,
    /// Needs at least one joker: a deck holds only four cards of a rank.
    FiveOfAKind = 9,
    StraightFlush = 8,
    FourOfAKind = 7,
    FullHouse = 6,
    Flush = 5,
    Straight = 4,
    ThreeOfAKind = 3,
    TwoPair = 2,
    OnePair = 1,
    HighCard = 0,
}

impl Category {
    /// Every category, best first.
    pub const ALL: [Category; 11] = [
        Category::FiveJokers,
        Category::FiveOfAKind,
        Category::StraightFlush,
        Category::FourOfAKind,
        Category::FullHouse,
        Category::Flush,
        Category::Straight,
        Category::ThreeOfAKind,
        Category::TwoPair,
        Category::OnePair,
        Category::HighCard,
    ];

    /// 0 (high card) to 10 (five jokers).
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The category of [`Category::index`] `index`; `None` above 10.
    pub const fn from_index(index: u8) -> Option<Category> {
        if index <= 10 {
            Some(Category::ALL[10 - index as usize])
        } else {
            None
        }
    }

    /// The snake_case name used in JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            Category::FiveJokers => "five_jokers",
            Category::FiveOfAKind => "five_of_a_kind",
            Category::StraightFlush => "straight_flush",
            Category::FourOfAKind => "four_of_a_kind",
            Category::FullHouse => "full_house",
            Category::Flush => "flush",
            Category::Straight => "straight",
            Category::ThreeOfAKind => "three_of_a_kind",
            Category::TwoPair => "two_pair",
            Category::OnePair => "one_pair",
            Category::HighCard => "high_card",
        }
    }
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_the_seeds_best_first_list() {
        for pair in Category::ALL.windows(2) {
            assert!(pair[0] > pair[1], "{:?} should beat {:?}", pair[0], pair[1]);
        }
        for category in Category::ALL {
            assert_eq!(Category::from_index(category.index()), Some(category));
            #[cfg(feature = "serde")]
            {
                let json = serde_json::to_string(&category).unwrap();
                assert_eq!(json, format!("\"{}\"", category.as_str()));
                assert_eq!(serde_json::from_str::<Category>(&json).unwrap(), category);
            }
        }
        assert_eq!(Category::from_index(11), None);
    }
}
