-- What a listener sees of the player example.
local ui = require("lunette")
local views = require("views")

describe("Player", function()
  local app
  before_each(function() app = ui.mount(views.EpisodeView()) end)

  it("plays and pauses through the button's binding", function()
    app:find("Play"):tap()
    assert.truthy(app:find("Pause"))
    assert.truthy(app:find("pause.circle"))
    app:find("Pause"):tap()
    assert.truthy(app:find("play.circle"))
  end)

  it("animates the scale effect and the background, not the image name", function()
    app:find("Play"):tap()
    local image = tostring(app:find("pause.circle"))
    assert.matches("%[animated: scaleEffect 1.5 %-> 1, easeInOut 1.0s%]", image)
    assert.matches('animated: background "gray" %-> "green", easeInOut 1.0s', app:tree())
  end)

  it("marks the episode favorite through a scoped binding", function()
    app:find("Favorite"):toggle()
    assert.truthy(app:find("★ in your favorites"))
    assert.equal("on", app:find("Favorite").value)
  end)

  it("keeps playing state when the episode changes", function()
    app:find("Play"):tap()
    app:find("Favorite"):toggle()              -- the parent re-renders with a changed episode
    assert.truthy(app:find("Pause"))
  end)
end)
