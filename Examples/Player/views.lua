-- The podcast player of "Managing user interface state": state, a binding
-- passed down, an animated scale effect, and a scoped binding.
local ui = require("lunette")

-- struct PlayButton: View { @Binding var isPlaying: Bool ... }
local PlayButton = ui.View("PlayButton", {
  binding = { "isPlaying" },
  body = function(self)
    return ui.Button(self.isPlaying and "Pause" or "Play", function()
      ui.withAnimation(ui.Animation.easeInOut(1), function()
        self.isPlaying = not self.isPlaying
      end)
    end)
  end,
})

-- struct PlayerView: View { var episode: Episode; @State private var isPlaying = false ... }
local PlayerView = ui.View("PlayerView", {
  state = { isPlaying = false },
  body = function(self)
    return ui.VStack {
      ui.Text(self.episode.title):foregroundStyle(self.isPlaying and "primary" or "secondary"),
      ui.Text(self.episode.showTitle):font("caption"):foregroundStyle("secondary"),
      ui.Image(self.isPlaying and "pause.circle" or "play.circle"):scaleEffect(self.isPlaying and 1 or 1.5),
      PlayButton { isPlaying = self["$isPlaying"] },
    }:background(self.isPlaying and "green" or "gray")   -- .background(isPlaying ? Color.green : Color.gray)
  end,
})

-- @State private var episode = Episode(...); Toggle("Favorite", isOn: $episode.isFavorite)
local EpisodeView = ui.View("EpisodeView", {
  state = { episode = { title = "Some Episode", showTitle = "Great Show", isFavorite = false } },
  body = function(self)
    return ui.VStack {
      PlayerView { episode = self.episode },
      ui.Toggle("Favorite", self["$episode"].isFavorite),
      ui.Text(self.episode.isFavorite and "★ in your favorites" or "not a favorite"),
    }
  end,
})

return { PlayButton = PlayButton, PlayerView = PlayerView, EpisodeView = EpisodeView }
